"""More look-alikes of e0499_deque_peeked_twice that run: a peek after the deque attribute was bound anew (by a
method) or after its front item was replaced (by a method, or by a store right here) is another buffer than the
peek before it."""

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := lo.get_mut(idx)) is not None:
        o.set(src[i] * f32(0.5))


class Pool:
    def __init__(self, stream: sk.Stream, n: int) -> None:
        self.free: deque[sk.DeviceBuffer] = deque(sk.zeros(n, f32, stream) for _ in range(2))

    def front(self) -> sk.DeviceBuffer:
        return self.free[0]

    def reset(self, stream: sk.Stream, n: int) -> None:
        self.free = deque(sk.zeros(n, f32, stream) for _ in range(2))

    def put_front(self, buf: sk.DeviceBuffer) -> None:
        self.free[0] = buf


def reset(pool: Pool, prepared: simt.PreparedLaunch, stream: sk.Stream, n: int) -> None:
    src = sk.to_device(np.ones(n, np.float32), stream)
    lo = pool.front()
    pool.reset(stream, n)
    hi = pool.front()
    split.launch(prepared, stream, src, lo, hi)


def stored(pool: Pool, prepared: simt.PreparedLaunch, stream: sk.Stream, n: int) -> None:
    src = sk.to_device(np.ones(n, np.float32), stream)
    lo = pool.front()
    pool.put_front(sk.zeros(n, f32, stream))
    hi = pool.front()
    split.launch(prepared, stream, src, lo, hi)


def stored_here(pool: Pool, prepared: simt.PreparedLaunch, stream: sk.Stream, n: int) -> None:
    src = sk.to_device(np.ones(n, np.float32), stream)
    lo = pool.front()
    pool.free[0] = sk.zeros(n, f32, stream)
    hi = pool.front()
    split.launch(prepared, stream, src, lo, hi)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = split.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev)
    pool = Pool(stream, 256)
    reset(pool, prepared, stream, 256)
    stored(pool, prepared, stream, 256)
    stored_here(pool, prepared, stream, 256)


if __name__ == "__main__":
    main()
