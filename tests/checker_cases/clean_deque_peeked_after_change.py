"""Look-alikes of e0499_deque_peeked_twice that run: a pool taking the buffer out (`popleft()`) hands out a new
one each time, and a peek after the deque changed in place (`rotate(-1)` in a method of the class, `append` right
here) is another item than the peek before it (a two-buffer ring: the checker forgets what it peeked at)."""

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

    def take(self) -> sk.DeviceBuffer:
        if not self.free:
            raise RuntimeError("pool exhausted")
        return self.free.popleft()

    def give(self, buf: sk.DeviceBuffer) -> None:
        self.free.append(buf)

    def front(self) -> sk.DeviceBuffer:
        return self.free[0]

    def advance(self) -> None:
        self.free.rotate(-1)

    def cycle(self) -> sk.DeviceBuffer:
        buf = self.free[0]
        self.free.rotate(-1)
        return buf


def popped(pool: Pool, prepared: simt.PreparedLaunch, stream: sk.Stream, n: int) -> None:
    src = sk.to_device(np.ones(n, np.float32), stream)
    lo, hi = pool.take(), pool.take()
    split.launch(prepared, stream, src, lo, hi)
    pool.give(lo)
    pool.give(hi)


def rotated(pool: Pool, prepared: simt.PreparedLaunch, stream: sk.Stream, n: int) -> None:
    src = sk.to_device(np.ones(n, np.float32), stream)
    lo = pool.front()
    pool.advance()
    hi = pool.front()
    split.launch(prepared, stream, src, lo, hi)


def cycled(pool: Pool, prepared: simt.PreparedLaunch, stream: sk.Stream, n: int) -> None:
    src = sk.to_device(np.ones(n, np.float32), stream)
    lo = pool.cycle()
    hi = pool.cycle()
    split.launch(prepared, stream, src, lo, hi)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = split.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev)
    pool = Pool(stream, 256)
    popped(pool, prepared, stream, 256)
    rotated(pool, prepared, stream, 256)
    cycled(pool, prepared, stream, 256)


if __name__ == "__main__":
    main()
