# fresh-expect: E0505 at line 54
# fresh-known-false-alarm: cli,mypy false E0382 at 54, inside `_standardize` where its partition would raise: the last iteration standardizes the buffer the previous one already moved (a real use after move the runtime never reaches: it stops at the E0505 there first)
"""A double-buffered image batch loader.

Raw uint8 batches sit on the device.  A SIMT kernel decodes a batch into float32 pixels
asynchronously (`launch_async`), and while the next batch decodes the loader standardizes the
current one in place with a tile kernel and hands it to the training loop as a numpy array.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u8
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

BLOCK = 256
TILE = 512
MEAN, INV_STD = 0.5, 4.0


@simt.kernel
@simt.launch_contract(block=BLOCK)
def decode(raw: Slice[u8], pixels: DisjointSlice[f32], scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := pixels.get_mut(idx)) is not None:
        out.set(f32(raw[i]) * scale)


@tile.kernel
def standardize(px: Partition[f32], mean: f32, inv_std: f32) -> None:
    px.store((px.load() - mean) * inv_std)


class BatchLoader:
    def __init__(self, batches: list[np.ndarray], device: sk.Device) -> None:
        self.stream = device.new_stream()
        self.size = batches[0].size
        self.raw = [sk.to_device(b.reshape(-1), self.stream) for b in batches]
        self.prepared = decode.prepare(simt.LaunchConfig1D.for_len(self.size, block=BLOCK), device)

    def _start(self, i: int) -> tuple[sk.DeviceBuffer[f32], sk.DeviceOp[tuple[object, ...]]]:
        staged = sk.zeros(self.size, f32, self.stream)
        pending = decode.launch_async(self.prepared, self.raw[i], staged, 1.0 / 255.0)
        return staged, pending

    def _standardize(self, pixels: sk.DeviceBuffer[f32]) -> np.ndarray:
        parts = pixels.partition((TILE,))
        parts, _, _ = standardize(parts, MEAN, INV_STD).sync_on(self.stream)
        return parts.unpartition().to_numpy(self.stream)

    def __iter__(self) -> Iterator[np.ndarray]:
        staged, pending = self._start(0)
        for i in range(len(self.raw)):
            pending.sync_on(self.stream)
            if i + 1 < len(self.raw):
                staged, pending = self._start(i + 1)  # decode the next batch meanwhile
            yield self._standardize(staged)


def main() -> None:
    rng = np.random.default_rng(3)
    batches = [rng.integers(0, 256, (4, 16, 16), dtype=np.uint8) for _ in range(3)]
    loader = BatchLoader(batches, sk.Device.cpu())
    for step, batch in enumerate(loader):
        print(f"batch {step}: mean {batch.mean():+.3f}, std {batch.std():.3f}")


if __name__ == "__main__":
    main()
