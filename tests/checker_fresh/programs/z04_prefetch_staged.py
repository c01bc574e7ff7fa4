# fresh-expect: E0505 at line 54
# fresh-note: found since: a @contextmanager generator's body runs in two parts, before its yield when the with item is entered and after it when the block is left (its finally), and the as name of a yielded argument is that argument in the block (attribute paths included)
"""Double-buffered input pipeline: normalize raw frames with an async SIMT launch, then
hand the staged frame to a tile kernel that squares it for an energy estimate."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

N = 512
TILE = 128


@simt.kernel
@simt.launch_contract(block=128)
def normalize(raw: Slice[f32], out: DisjointSlice[f32], inv_scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] * inv_scale)


@tile.kernel
def square(z: Partition[f32]) -> None:
    t = z.load()
    z.store(t * t)


class Prefetcher:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = normalize.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
        self.staging = sk.zeros(N, f32, stream)
        self.pending: sk.DeviceOp | None = None

    def start(self, raw: sk.DeviceBuffer) -> None:
        self.pending = normalize.launch_async(self.prepared, raw, self.staging, 1.0 / 255.0)

    def finish(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def hand_off(self) -> Partition:
        """Give the staged frame to the tile side and start a fresh staging buffer."""
        parts = self.staging.partition((TILE,))
        self.staging = sk.zeros(N, f32, self.stream)
        return parts


@contextmanager
def staged(pf: Prefetcher, raw: sk.DeviceBuffer) -> Iterator[Prefetcher]:
    pf.start(raw)
    try:
        yield pf
    finally:
        pf.finish()


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    pf = Prefetcher(dev, stream)
    rng = np.random.default_rng(7)
    for frame in range(3):
        raw = sk.to_device(rng.integers(0, 256, N).astype(np.float32), stream)
        with staged(pf, raw) as ready:
            parts = ready.hand_off()
        (energy,) = square(parts).sync_on(stream)
        print(f"frame {frame}: energy {float(energy.unpartition().to_numpy(stream).sum()):.2f}")


if __name__ == "__main__":
    main()
