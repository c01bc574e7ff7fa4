"""Two `@property` getters that return views of one buffer (`return self.buf.view(...)`) give those views when read:
passing `self.arena.tension` and `self.arena.sag`, read through an object a field holds, as a launch's two mutable
outputs is E0499 when their ranges overlap (the symbolic bounds `HEADER + self.n` and `self.n` are compared in the
caller's terms)."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

HEADER = 4


@simt.kernel
@simt.launch_contract(block=16)
def split(x: Slice[f32], first: DisjointSlice[f32], second: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := first.get_mut(thread.index_1d())) is not None:
        o.set(x[i])
    if (p := second.get_mut(thread.index_1d())) is not None:
        p.set(x[i] * f32(0.5))


class Arena:
    def __init__(self, n: int, stream: sk.Stream) -> None:
        self.n = n
        self.buf = sk.zeros(HEADER + 2 * n, f32, stream)

    @property
    def tension(self) -> sk.DeviceBuffer:
        return self.buf.view(HEADER, HEADER + self.n)

    @property
    def sag(self) -> sk.DeviceBuffer:
        return self.buf.view(self.n, 2 * self.n)


class Monitor:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.arena = Arena(16, stream)
        self.prepared = split.prepare(simt.LaunchConfig1D.for_len(16, block=16), dev)

    def ingest(self, x: sk.DeviceBuffer) -> None:
        split.launch(self.prepared, self.stream, x, self.arena.tension, self.arena.sag)  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    Monitor(dev, stream).ingest(sk.zeros(16, f32, stream))


if __name__ == "__main__":
    main()
