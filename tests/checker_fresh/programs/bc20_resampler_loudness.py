# fresh-expect: E0505 at line 64
# fresh-note: Streaming 2x audio upsampler that keeps the pending `launch_async` upsampling op in an attribute and meters the loudness of each input window with a tile kernel. Bug: `process` calls `meter()` before `flush()`, so the energy tile launch moves `self.window` while the pending upsampling op still reads it (E0505).
"""A streaming 2x upsampler for a text-to-speech vocoder's output (16 kHz -> 32 kHz by linear interpolation),
with a loudness meter on each input window for the automatic gain control.
"""

from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

HOP = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=128)
def upsample2x(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    j = idx.get()
    i = j // 2
    nxt = min(i + 1, len(x) - 1)
    if (o := y.get_mut(idx)) is not None:
        if j % 2 == 0:
            o.set(x[i])
        else:
            o.set(0.5 * (x[i] + x[nxt]))


@tile.kernel
def energy(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    out.store(t * t)


class Upsampler:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prep = upsample2x.prepare(simt.LaunchConfig1D.for_len(2 * HOP, block=128), dev)
        self.window = sk.zeros(HOP, f32, stream)
        self.pending: sk.DeviceOp | None = None
        self.outputs: list[sk.DeviceBuffer] = []

    def push(self, chunk: np.ndarray) -> None:
        self.window = sk.to_device(chunk.astype(np.float32), self.stream)
        out = sk.zeros(2 * HOP, f32, self.stream)
        self.pending = upsample2x.launch_async(self.prep, self.window, out)
        self.outputs.append(out)

    def flush(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def meter(self) -> float:
        parts = tile.zeros((HOP,), f32).partition((TILE,))
        parts, self.window = energy(parts, self.window).sync_on(self.stream)
        return float(10.0 * np.log10(parts.unpartition().to_numpy(self.stream).mean() + 1e-12))

    def process(self, chunks: Iterable[np.ndarray]) -> Iterator[tuple[np.ndarray, float]]:
        for chunk in chunks:
            self.push(chunk)
            level = self.meter()
            self.flush()
            yield self.outputs.pop().to_numpy(self.stream), level


def vocoder_output(n_chunks: int) -> Iterator[np.ndarray]:
    t = np.arange(n_chunks * HOP) / 16000.0
    wave = 0.3 * np.sin(2 * np.pi * 220.0 * t) * np.linspace(0.2, 1.0, t.size)
    for k in range(n_chunks):
        yield wave[k * HOP : (k + 1) * HOP]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    up = Upsampler(dev, stream)
    for k, (audio, level) in enumerate(up.process(vocoder_output(4))):
        print(f"chunk {k}: {audio.size} samples at 32 kHz, level {level:.1f} dB")


if __name__ == "__main__":
    main()
