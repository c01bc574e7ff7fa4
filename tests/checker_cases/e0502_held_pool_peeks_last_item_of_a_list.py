"""A pool method that peeks at the last item of its list (`return self.free[-1]`) instead of popping it gives the
same buffer to two calls with nothing changing the list between, also when the pool is held by another object
(`self.pool.acquire()`) and returns a new buffer while the list is empty: a launch reading one and writing the
other reads and writes one buffer, as the runtime finds."""

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def scale(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * 2.0)


@dataclass
class ScratchPool:
    stream: sk.Stream
    free: list[sk.DeviceBuffer] = field(default_factory=list)

    def acquire(self) -> sk.DeviceBuffer:
        if not self.free:
            return sk.zeros(N, f32, self.stream)
        return self.free[-1]

    def release(self, buf: sk.DeviceBuffer) -> None:
        self.free.append(buf)


class Solver:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.pool = ScratchPool(stream)
        self.pool.release(sk.to_device(np.ones(N, np.float32), stream))
        self.prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)

    def step(self) -> None:
        src, dst = self.pool.acquire(), self.pool.acquire()
        scale.launch(self.prepared, self.stream, src, dst)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    Solver(dev, dev.new_stream()).step()


if __name__ == "__main__":
    main()
