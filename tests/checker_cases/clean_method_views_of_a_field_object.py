"""The clean twin of `e0502_method_views_of_a_field_object`: the windows of two different slots of the ring, read
through an object a field holds, are disjoint, so one is the launch's input and the other its output."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=8)
def smooth(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i] * f32(0.5))


class Ring:
    def __init__(self, slots: int, width: int, stream: sk.Stream) -> None:
        self.width = width
        self.buf = sk.zeros(slots * width, f32, stream)

    def window(self, slot: int) -> sk.DeviceBuffer:
        return self.buf.view(slot * self.width, slot * self.width + self.width)


class Smoother:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.ring = Ring(4, 8, stream)
        self.prepared = smooth.prepare(simt.LaunchConfig1D.for_len(8, block=8), dev)

    def step(self) -> None:
        smooth.launch(self.prepared, self.stream, self.ring.window(1), self.ring.window(2))


def main() -> None:
    dev = sk.Device.cpu()
    Smoother(dev, dev.new_stream()).step()


if __name__ == "__main__":
    main()
