"""A pool handing out the buffer at the front of a deque without taking it out (`return self.free[0]`, a peek,
not `popleft()`): two acquires with nothing changing the deque in between give one buffer, so launching them as
two outputs borrows it mutably twice (the runtime raises `AliasingError`).  A peek through a local name after a
guard that only raises is the same peek."""

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
        self.free: deque[sk.DeviceBuffer] = deque(sk.zeros(n, f32, stream) for _ in range(3))

    def acquire(self) -> sk.DeviceBuffer:
        if not self.free:
            raise RuntimeError("pool exhausted")
        buf = self.free[0]
        return buf

    def front(self) -> sk.DeviceBuffer:
        return self.free[0]


def run(pool: Pool, prepared: simt.PreparedLaunch, stream: sk.Stream, n: int) -> None:
    src = sk.to_device(np.ones(n, np.float32), stream)
    lo, hi = pool.acquire(), pool.acquire()
    split.launch(prepared, stream, src, lo, hi)  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = split.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev)
    run(Pool(stream, 256), prepared, stream, 256)


if __name__ == "__main__":
    main()
