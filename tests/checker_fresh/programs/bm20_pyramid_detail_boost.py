# fresh-expect: clean
# fresh-note: Clean twin: the tile boost loop runs after the StatsBatch with-block, whose __exit__ has already synced every pending energy op, so partitioning the level buffers moves nothing still borrowed.
"""Image pyramid in the SIMT and tile tracks: a 2x2-decimated Gaussian pyramid is built with SIMT launches, the
energy of each level is measured asynchronously with atomics, and a tile kernel boosts the detail levels."""

from __future__ import annotations

from types import TracebackType

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread
from safekernels.tile import Partition

TILE = 16


@simt.kernel
@simt.launch_contract(block=64, requires=("len(src) >= len(dst) * 4",))
def decimate(width: u32, src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    half = width // 2
    y = i // half
    x = i % half
    top = (2 * y) * width + 2 * x
    if (o := dst.get_mut(idx)) is not None:
        o.set(0.25 * (src[top] + src[top + 1] + src[top + width] + src[top + width + 1]))


@simt.kernel
@simt.launch_contract(block=64)
def energy(level: Slice[f32], total: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(level):
        total.fetch_add(0, level[i] * level[i])


@tile.kernel
def boost(z: Partition[f32], gain: f32) -> None:
    z.store(z.load() * gain)


class StatsBatch:
    """Collects pending statistics launches and runs them all when the block ends."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.ops: list[sk.DeviceOp] = []

    def __enter__(self) -> "StatsBatch":
        return self

    def add(self, op: sk.DeviceOp) -> None:
        self.ops.append(op)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        for op in self.ops:
            op.sync_on(self.stream)
        self.ops.clear()


class Pyramid:
    def __init__(self, image: np.ndarray, depth: int, device: sk.Device) -> None:
        self.device = device
        self.stream = device.new_stream()
        self.widths = [image.shape[1] >> k for k in range(depth)]
        self.levels: list[object] = [sk.to_device(image.reshape(-1).astype(np.float32), self.stream)]
        for k in range(1, depth):
            dst = sk.zeros(self.levels[-1].length // 4, f32, self.stream)
            prep = decimate.prepare(simt.LaunchConfig1D.for_len(dst.length, block=64), device)
            decimate.launch(prep, self.stream, self.widths[k - 1], self.levels[-1], dst)
            self.levels.append(dst)
        self.totals = [sk.zeros(1, f32, self.stream) for _ in range(depth)]

    def __len__(self) -> int:
        return len(self.levels)

    def enhance(self, gains: list[float]) -> np.ndarray:
        with StatsBatch(self.stream) as batch:
            for k, level in enumerate(self.levels):
                prep = energy.prepare(simt.LaunchConfig1D.for_len(level.length, block=64), self.device)
                batch.add(energy.launch_async(prep, level, self.totals[k]))
        for k, gain in enumerate(gains):
            if gain == 1.0:
                continue
            z = boost(self.levels[k].partition((TILE,)), gain).first().sync_on(self.stream)
            self.levels[k] = z.unpartition()
        return np.array([float(t.to_numpy(self.stream)[0]) for t in self.totals])


def main() -> None:
    rng = np.random.default_rng(4)
    image = rng.random((32, 32)).astype(np.float32)
    pyramid = Pyramid(image, depth=4, device=sk.Device.default())
    totals = pyramid.enhance([1.0, 1.5, 1.25, 1.0])
    np.testing.assert_allclose(totals[0], float((image * image).sum()), rtol=1e-4)
    coarse = pyramid.levels[3].to_numpy(pyramid.stream)
    print(f"{len(pyramid)} levels, energies {np.round(totals, 2)}, coarsest mean {coarse.mean():.4f}")


if __name__ == "__main__":
    main()
