"""A pool method that pops its list (`return self.free.pop()`) gives a different buffer to each call; one that
peeks (`return self.free[-1]`) gives another buffer once the list changed between the calls (`release`
appends): the launches read one buffer and write another."""

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

    def take(self) -> sk.DeviceBuffer:
        if not self.free:
            return sk.zeros(N, f32, self.stream)
        return self.free.pop()

    def peek(self) -> sk.DeviceBuffer:
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
        self.pool.release(sk.to_device(np.ones(N, np.float32), stream))
        self.prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)

    def step(self) -> None:
        src, dst = self.pool.take(), self.pool.take()
        scale.launch(self.prepared, self.stream, src, dst)
        first = self.pool.peek()
        self.pool.release(dst)
        second = self.pool.peek()
        scale.launch(self.prepared, self.stream, first, second)
        print(second.to_numpy(self.stream)[:2])


def main() -> None:
    dev = sk.Device.cpu()
    Solver(dev, dev.new_stream()).step()


if __name__ == "__main__":
    main()
