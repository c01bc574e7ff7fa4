"""A method that keeps a `launch_async` op in a list attribute (`self.pending.append((act.name, op))`) keeps the
loans it takes of its argument's fields: `desk.queue(act)` then `desk.fade(act)`, a method that partitions
`act.durations`, moves a buffer the kept op still writes.  The callee's annotation (`act: Act`, a dataclass
declaring `durations: sk.DeviceBuffer`) says that field is a device value, whatever the caller knows of `act`."""

from dataclasses import dataclass

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def halve(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * f32(0.5))


@tile.kernel
def ramp(dur: Partition[f32]) -> None:
    dur.store(dur.load() + 1.0)


@dataclass
class Act:
    name: str
    chars: sk.DeviceBuffer
    durations: sk.DeviceBuffer


class Desk:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.plan = halve.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.pending: list[tuple[str, sk.DeviceOp]] = []

    def queue(self, act: Act) -> None:
        op = halve.launch_async(self.plan, act.chars, act.durations)
        self.pending.append((act.name, op))

    def fade(self, act: Act) -> None:
        (faded,) = ramp(act.durations.partition((32,))).sync_on(self.stream)  # expect: E0505
        act.durations = faded.unpartition()

    def flush(self) -> None:
        for _name, op in self.pending:
            op.sync_on(self.stream)
        self.pending.clear()


def rehearse(desk: Desk, acts: list[Act]) -> None:
    for act in acts:
        desk.queue(act)
        desk.fade(act)
    desk.flush()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    acts = [Act("I", sk.zeros(N, f32, stream), sk.zeros(N, f32, stream))]
    rehearse(Desk(dev, stream), acts)


if __name__ == "__main__":
    main()
