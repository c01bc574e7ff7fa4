# fresh-expect: E0505 at line 55
# (fixed: class-based context manager, __enter__ returning self and __exit__ are followed)
"""Data loader with a class-based prefetch context manager feeding a tile normalisation kernel."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u8
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

BATCH = 768


@simt.kernel
@simt.launch_contract(block=256)
def decode_u8(raw: Slice[u8], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(f32(raw[i]) / f32(255.0))


@tile.kernel
def normalise(x: Partition[f32], mean: f32, inv_std: f32) -> None:
    x.store((x.load() - mean) * inv_std)


class Prefetcher:
    """Starts decoding the next batch on entry; the decode is complete once the block is left."""

    def __init__(self, raw: np.ndarray, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.raw = sk.to_device(raw, stream)
        self.staged = sk.zeros(len(raw), f32, stream)
        self.prepared = decode_u8.prepare(simt.LaunchConfig1D.for_len(len(raw), block=256), dev)
        self.op: sk.DeviceOp | None = None

    def __enter__(self) -> "Prefetcher":
        self.op = decode_u8.launch_async(self.prepared, self.raw, self.staged)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None


def load_epoch(batches: list[np.ndarray], dev: sk.Device, stream: sk.Stream) -> list[float]:
    means = []
    for raw in batches:
        with Prefetcher(raw, dev, stream) as pf:
            parts = pf.staged.partition((256,))
            parts, _, _ = normalise(parts, 0.5, 4.0).sync_on(stream)
            means.append(float(parts.unpartition().to_numpy(stream).mean()))
    return means


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    batches = [rng.integers(0, 256, BATCH).astype(np.uint8) for _ in range(2)]
    print("normalised batch means:", [round(m, 4) for m in load_epoch(batches, dev, stream)])


if __name__ == "__main__":
    main()
