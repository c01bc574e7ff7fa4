"""Pending ops kept as `(name, op)` tuples in a list (`pending.append((name, k.launch_async(...)))`), drained by
`while pending: _name, op = pending.pop(0); op.sync_on(s)`: the loop falls out only once the list is empty, so
the loans of every stored op have ended and moving a buffer they wrote is fine.  A class whose method drains its
queue that way is not assumed to have ops pending when its other methods start: the caller below drains before it
moves (its summaries are checked in its order)."""

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=32)
def deviation(profile: Slice[f32], out: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := out.get_mut(thread.index_1d())) is not None:
        o.set(profile[i] - f32(2.0))


@tile.kernel
def porosity(flags: Partition[f32], dev: Tensor[f32]) -> None:
    flags.store(tile.load_like(dev, flags))


def local(dev: sk.Device, stream: sk.Stream) -> None:
    prep = deviation.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    pending = []
    out = sk.zeros(64, f32, stream)
    pending.append(("root", deviation.launch_async(prep, sk.zeros(64, f32, stream), out)))
    while pending:
        _name, op = pending.pop(0)
        op.sync_on(stream)
    porosity(tile.zeros((64,), f32).partition((16,)), out).sync_on(stream)


class Inspector:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = deviation.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
        self.pending: list[tuple[str, sk.DeviceOp]] = []
        self.deviations: dict[str, sk.DeviceBuffer] = {}

    def scan(self, name: str) -> None:
        out = sk.zeros(64, f32, self.stream)
        self.deviations[name] = out
        self.pending.append((name, deviation.launch_async(self.prepared, sk.zeros(64, f32, self.stream), out)))

    def drain(self) -> None:
        while self.pending:
            _name, op = self.pending.pop(0)
            op.sync_on(self.stream)

    def score(self, name: str) -> None:
        dev = self.deviations.pop(name)
        porosity(tile.zeros((64,), f32).partition((16,)), dev).sync_on(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    local(dev, stream)
    inspector = Inspector(dev, stream)
    inspector.scan("root")
    inspector.drain()
    inspector.score("root")


if __name__ == "__main__":
    main()
