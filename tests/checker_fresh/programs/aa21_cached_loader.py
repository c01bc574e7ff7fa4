# fresh-expect: E0382 at line 60
# fresh-note: found since: a method (not only a top-level function) that may run again (its one call is in a loop) gets the object its lru_cache call kept, moved by an earlier run; the error is at the use of the name bound to it
"""Data loader with a device-side batch cache, for a two-epoch toy training loop.

Batches are uploaded once and kept on the device (an LRU cache keyed by batch index). Each epoch squashes a batch
with a tile kernel and standardizes the result with a SIMT kernel before "training" on it.
"""

from __future__ import annotations

import functools
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BATCH = 128
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def standardize(x: Slice[f32], y: DisjointSlice[f32], mean: f32, inv_std: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set((x[i] - mean) * inv_std)


@tile.kernel
def squash(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.tanh(tile.load_like(x, out)))


class Loader:
    def __init__(self, data: np.ndarray, dev: sk.Device, stream: sk.Stream) -> None:
        self.data = data
        self.stream = stream
        self.prep = standardize.prepare(simt.LaunchConfig1D.for_len(BATCH, block=64), dev)
        squashed = np.tanh(data)
        self.mean = float(squashed.mean())
        self.inv_std = float(1.0 / squashed.std())

    def __len__(self) -> int:
        return len(self.data) // BATCH

    @functools.lru_cache(maxsize=8)
    def batch(self, i: int) -> sk.DeviceBuffer:
        return sk.to_device(self.data[i * BATCH:(i + 1) * BATCH], self.stream)

    def epoch(self) -> Iterator[np.ndarray]:
        for i in range(len(self)):
            raw = self.batch(i)
            squashed = tile.zeros((BATCH,), f32).partition((TILE,))
            squashed, _ = squash(squashed, raw).sync_on(self.stream)
            flat = squashed.unpartition()
            normed = sk.zeros(BATCH, f32, self.stream)
            standardize.launch(self.prep, self.stream, flat.as_buffer(), normed, self.mean, self.inv_std)
            yield normed.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    data = np.random.default_rng(8).normal(0.3, 0.8, 3 * BATCH).astype(np.float32)
    loader = Loader(data, dev, stream)
    w = 0.0
    for ep in range(2):
        losses = [float(np.mean((b - w) ** 2)) for b in loader.epoch()]
        w += 0.1
        print(f"epoch {ep}: loss {np.mean(losses):.4f} over {len(losses)} batches")


if __name__ == "__main__":
    main()
