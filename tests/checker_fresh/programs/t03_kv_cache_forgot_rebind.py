# fresh-expect: E0382 at line 31
# The method reports its own use of the moved `self.keys`; the caller's snapshot() is the same move.
"""Decode loop with a KV cache held in tile tensors: the append op runs, but its returned tensors are dropped."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

HEAD = 16


@tile.kernel
def write_row(cache: Partition[f32], row: Tensor[f32], pos: int) -> None:
    here = tile.bid(0)
    new = row.load((0,), (HEAD,))
    old = cache.load()
    cache.store(tile.where(here == pos, tile.reshape(new, (1, HEAD)), old))


class KVCache:
    def __init__(self, max_len: int) -> None:
        self.max_len = max_len
        self.keys = tile.zeros((max_len, HEAD), f32).partition((1, HEAD))
        self.length = 0

    def prefill(self, keys: list, stream) -> None:
        for key in keys:
            op = write_row(self.keys, tile.from_numpy(key), self.length)
            op.sync_on(stream)  # BUG: the cache comes back in the tuple, self.keys stays moved
            self.length += 1

    def snapshot(self, stream) -> np.ndarray:
        return self.keys.to_numpy(stream)[: self.length]


def decode(steps: int) -> np.ndarray:
    stream = sk.Device.cpu().new_stream()
    cache = KVCache(max_len=8)
    rng = np.random.default_rng(0)
    prompt = [rng.standard_normal(HEAD).astype(np.float32) for _ in range(steps)]
    cache.prefill(prompt, stream)
    return cache.snapshot(stream)


if __name__ == "__main__":
    print(decode(steps=3).shape)
