# fresh-expect: E0505 at line 46
"""A decoding KV cache: new keys are appended asynchronously, and attention reads the cache on the tile track."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

CTX = 256


@simt.kernel
@simt.launch_contract(block=128)
def append_kv(new: Slice[f32], cache: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := cache.get_mut(idx)) is not None:
        o.set(o.get() + new[i])


@tile.kernel
def attend(out: Partition[f32], cache: Tensor[f32]) -> None:
    out.store(tile.load_like(cache, out) * 0.5)


class KVCache:
    def __init__(self, dev: sk.Device, stream) -> None:
        self.stream = stream
        self.keys = sk.zeros(CTX, f32, stream)
        self.prep = append_kv.prepare(simt.LaunchConfig1D.for_len(CTX, block=128), dev)
        self.pending = None

    def append(self, new_keys: np.ndarray) -> None:
        self.pending = append_kv.launch_async(self.prep, sk.to_device(new_keys, self.stream), self.keys)

    def flush(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def attention(self):
        out = tile.zeros((CTX,), f32).partition((128,))
        out, self.keys = attend(out, self.keys).sync_on(self.stream)
        return out.unpartition()


def decode_step(cache: KVCache, token: np.ndarray):
    cache.append(token)
    scores = cache.attention()
    cache.flush()
    return scores


if __name__ == "__main__":
    dev = sk.Device.cpu()
    cache = KVCache(dev, dev.new_stream())
    print(decode_step(cache, np.ones(CTX, dtype=np.float32)).to_numpy(cache.stream)[:3])
