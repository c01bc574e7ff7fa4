"""`self.lent = self.total.as_buffer()` in `__init__` is `self.total`'s object, and `self.head =
self.buf.view(0, 32)` a view of `self.buf`'s: the runtime ends a view when its parent moves.  A method moving
`self.total` and binding it anew (`add`) leaves `self.lent` lending the moved tensor, so a later method's launch
reading it is a use after move; a method moving `self.buf` itself makes its own later read of `self.head` one."""

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
        self.lent = self.total.as_buffer()
        self.prepared = negate.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)

    def add(self) -> None:
        acc, _x = accumulate(self.total.partition((16,)), tile.ones((64,), f32)).sync_on(self.stream)
        self.total = acc.unpartition()

    def mean(self) -> None:
        out = sk.zeros(64, f32, self.stream)
        negate.launch(self.prepared, self.stream, self.lent, out)  # expect: E0382


class Staged:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream
        self.buf = sk.zeros(64, f32, stream)
        self.head = self.buf.view(0, 32)
        self.prepared = negate.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)

    def offload(self) -> None:
        out = sk.zeros(32, f32, self.stream)
        moved = self.buf.to(self.dev, self.stream)
        negate.launch(self.prepared, self.stream, self.head, out)  # expect: E0382
        del moved


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    running = Running(dev, stream)
    running.add()
    try:
        running.mean()
    except sk.UseAfterMoveError as err:
        print("UseAfterMoveError:", err)
    try:
        Staged(dev, stream).offload()
    except sk.UseAfterMoveError as err:
        print("UseAfterMoveError:", err)


if __name__ == "__main__":
    main()
