# fresh-expect: E0505 at line 40
"""A KV cache queues its SIMT row write asynchronously; `attend` hands the cache to a tile kernel before the
queued write has been synced."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def blend_row(new: Slice[f32], cache: DisjointSlice[f32], keep: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := cache.get_mut(idx)) is not None:
        o.set(keep * new[i])


@tile.kernel
def read_scores(scores: Partition[f32], keys: Tensor[f32], q: f32) -> None:
    scores.store(tile.load_like(keys, scores) * q)


class KVCache:
    def __init__(self, size: int, dev, stream) -> None:
        self.stream = stream
        self.keys = sk.zeros(size, f32, stream)
        self.prep = blend_row.prepare(simt.LaunchConfig1D.for_len(size, block=64), dev)
        self.pending = None

    def write(self, row: np.ndarray) -> None:
        self.pending = blend_row.launch_async(self.prep, sk.to_device(row, self.stream), self.keys, 1.0)

    def attend(self, q: float) -> np.ndarray:
        scores = tile.zeros((len(self.keys),), f32).partition((64,))
        scores, self.keys = read_scores(scores, self.keys, q).sync_on(self.stream)  # BUG: write still pending
        if self.pending is not None:
            self.pending.sync_on(self.stream)
        return scores.unpartition().to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    cache = KVCache(256, dev, dev.new_stream())
    cache.write(np.ones(256, np.float32))
    print(cache.attend(0.5)[:4])


if __name__ == "__main__":
    main()
