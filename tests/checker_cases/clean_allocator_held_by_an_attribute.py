"""An allocator an attribute holds (`self.arena.alloc(n)`) whose method moves its own offset by what it hands
out (`stop = start + size`, `self.top = stop`, `return self.buf[start:stop]`) is a bump allocator: each call hands
out the slice after the last one, so two allocations passed as a launch's two outputs are fine, as they are at run
time."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def split(x: Slice[f32], low: DisjointSlice[f32], high: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (lo := low.get_mut(thread.index_1d())) is not None:
        lo.set(x[i] * f32(0.5))
    if (hi := high.get_mut(thread.index_1d())) is not None:
        hi.set(x[i] * f32(2.0))


class Arena:
    def __init__(self, capacity: int, stream: sk.Stream) -> None:
        self.buf = sk.zeros(capacity, f32, stream)
        self.top = 0

    def alloc(self, size: int) -> sk.DeviceBuffer:
        start = self.top
        stop = start + size
        self.top = stop
        return self.buf[start:stop]


class Splitter:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.arena = Arena(128, stream)
        self.prepared = split.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)

    def run(self, x: sk.DeviceBuffer) -> None:
        low = self.arena.alloc(32)
        high = self.arena.alloc(32)
        split.launch(self.prepared, self.stream, x, low, high)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    Splitter(dev, stream).run(sk.zeros(32, f32, stream))


if __name__ == "__main__":
    main()
