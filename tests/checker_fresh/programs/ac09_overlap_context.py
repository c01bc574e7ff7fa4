# fresh-expect: E0505 at line 63
# idiom: class-based context manager collecting submitted async launches and syncing them on exit
"""Spectrogram post-processing with overlapped device work.

`Overlap` is a context manager: work submitted inside the block runs asynchronously and is
synchronized when the block exits, so the host can keep queueing while the device computes.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

BINS = 512
TILE = 128


@simt.kernel
@simt.launch_contract(block=128)
def log_power(re: Slice[f32], im: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(re[i] * re[i] + im[i] * im[i])


@tile.kernel
def floor_db(z: Partition[f32], floor: f32) -> None:
    z.store(tile.maximum(z.load(), floor))


class Overlap:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.ops: list = []

    def __enter__(self) -> Overlap:
        return self

    def submit(self, kernel, prepared, *buffers) -> None:
        self.ops.append(kernel.launch_async(prepared, *buffers))

    def __exit__(self, *exc: object) -> None:
        while self.ops:
            self.ops.pop(0).sync_on(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    spectrum = np.fft.rfft(np.random.default_rng(2).standard_normal(2 * BINS))[:BINS]
    re = sk.to_device(spectrum.real.astype(np.float32), stream)
    im = sk.to_device(spectrum.imag.astype(np.float32), stream)
    power = sk.zeros(BINS, f32, stream)
    prepared = log_power.prepare(simt.LaunchConfig1D.for_len(BINS, block=128), dev)
    with Overlap(stream) as ov:
        ov.submit(log_power, prepared, re, im, power)
        floored, _ = floor_db(power.partition((TILE,)), 1e-3).sync_on(stream)
    values = floored.unpartition().to_numpy(stream)
    print(f"bins above floor: {(values > 1e-3).sum()} of {BINS}, peak {values.max():.2f}")


if __name__ == "__main__":
    main()
