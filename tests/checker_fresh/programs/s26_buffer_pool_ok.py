# fresh-expect: clean
"""A small buffer pool hands out distinct scratch buffers with pop(); the two mutable outputs come from two acquires."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], evens: DisjointSlice[f32], odds: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := evens.get_mut(idx)) is not None:
        e.set(src[i])


class BufferPool:
    def __init__(self, n: int, stream, size: int) -> None:
        self.free = [sk.zeros(n, f32, stream) for _ in range(size)]

    def acquire(self):
        if not self.free:
            raise RuntimeError("pool exhausted")
        return self.free.pop()

    def release(self, buf) -> None:
        self.free.append(buf)


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 256
pool = BufferPool(n, stream, 2)
src = sk.to_device(np.arange(2 * n, dtype=np.float32), stream)
evens = pool.acquire()
odds = pool.acquire()
split2.launch(split2.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev), stream, src, evens, odds)
print(evens.to_numpy(stream)[:4])
pool.release(evens)
pool.release(odds)
