"""The clean twin of `e0382_method_move_reported_once`: the methods rebind the attribute to the tensor the tile
launch hands back (`self.keys = op.sync_on(stream)[0]`), so neither the next iteration nor the caller's
`cache.snapshot()` uses a moved value."""

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
        self.keys = tile.zeros((max_len, HEAD), f32).partition((1, HEAD))
        self.length = 0

    def prefill(self, keys: list[np.ndarray], stream: sk.Stream) -> None:
        for key in keys:
            op = write_row(self.keys, tile.from_numpy(key), self.length)
            self.keys = op.sync_on(stream)[0]
            self.length += 1

    def append(self, key: np.ndarray, stream: sk.Stream) -> None:
        self.keys = write_row(self.keys, tile.from_numpy(key), self.length).sync_on(stream)[0]
        self.length += 1

    def snapshot(self, stream: sk.Stream) -> np.ndarray:
        return self.keys.to_numpy(stream)[: self.length]


def decode(steps: int) -> np.ndarray:
    stream = sk.Device.cpu().new_stream()
    cache = KVCache(max_len=8)
    rng = np.random.default_rng(0)
    cache.prefill([rng.standard_normal(HEAD).astype(np.float32) for _ in range(steps)], stream)
    return cache.snapshot(stream)


def append_one() -> np.ndarray:
    stream = sk.Device.cpu().new_stream()
    cache = KVCache(max_len=8)
    cache.append(np.ones(HEAD, np.float32), stream)
    row = tile.from_numpy(np.ones(HEAD, np.float32))
    cache.keys = write_row(cache.keys, row, 1).sync_on(stream)[0]
    return cache.snapshot(stream)


def main() -> None:
    print(decode(steps=3).shape)
    print(append_one().shape)


if __name__ == "__main__":
    main()
