"""A method that returns a view of its object's buffer (`return self.buf.view(0, 8)`) gives the same view when its
call is written inline as a launch argument as when its result is bound to a name first: an overlapping view of
the same buffer passed as the launch's input and its output is E0502 either way."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=8)
def double(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * f32(2.0))


class Arena:
    def __init__(self, stream: sk.Stream) -> None:
        self.buf = sk.zeros(16, f32, stream)

    def head(self) -> sk.DeviceBuffer:
        return self.buf.view(0, 8)

    def tail(self) -> sk.DeviceBuffer:
        return self.buf.view(4, 12)


def run(dev: sk.Device, stream: sk.Stream) -> None:
    arena = Arena(stream)
    prepared = double.prepare(simt.LaunchConfig1D.for_len(8, block=8), dev)
    double.launch(prepared, stream, arena.head(), arena.tail())  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    run(dev, dev.new_stream())


if __name__ == "__main__":
    main()
