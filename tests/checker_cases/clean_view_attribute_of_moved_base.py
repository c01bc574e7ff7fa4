"""Twin of e0382_view_attribute_of_moved_base: `lent` is a property lending the current `self.total` each time it
is read, so the handle never outlives `add`'s move; `offload` reads `self.head` before it moves `self.buf`."""

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@tile.kernel
def accumulate(acc: Partition[f32], x: Tensor[f32]) -> None:
    acc.store(acc.load() + tile.load_like(x, acc))


@simt.kernel
@simt.launch_contract(block=32)
def negate(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(-x[i])


class Running:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.total = tile.zeros((64,), f32).sync_on(stream)
        self.prepared = negate.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)

    @property
    def lent(self) -> sk.DeviceBuffer[f32]:
        return self.total.as_buffer()

    def add(self) -> None:
        acc, _x = accumulate(self.total.partition((16,)), tile.ones((64,), f32)).sync_on(self.stream)
        self.total = acc.unpartition()

    def mean(self) -> None:
        out = sk.zeros(64, f32, self.stream)
        negate.launch(self.prepared, self.stream, self.lent, out)


class Staged:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream
        self.buf = sk.zeros(64, f32, stream)
        self.head = self.buf.view(0, 32)
        self.prepared = negate.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)

    def offload(self) -> None:
        out = sk.zeros(32, f32, self.stream)
        negate.launch(self.prepared, self.stream, self.head, out)
        moved = self.buf.to(self.dev, self.stream)
        del moved


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    running = Running(dev, stream)
    running.add()
    running.mean()
    Staged(dev, stream).offload()


if __name__ == "__main__":
    main()
