"""A method that first runs every op another object keeps (`self.front.flush()`, draining its list with
`while self.pending: self.pending.pop(0).sync_on(s)`) and then moves a buffer those ops borrowed: the loans end
before the move, at the caller too, so the caller's call of that method moves a buffer nothing borrows."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def integrate(accel: Slice[f32], vel: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := vel.get_mut(idx)) is not None:
        o.set(accel[i] * 0.5)


class FrontEnd:
    def __init__(self, dev: sk.Device, s: sk.Stream) -> None:
        self.pending: list[sk.DeviceOp[object]] = []
        self.s = s
        self.prepared = integrate.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)

    def submit(self) -> sk.DeviceBuffer[f32]:
        accel = sk.zeros(N, f32, self.s)
        vel = sk.zeros(N, f32, self.s)
        self.pending.append(integrate.launch_async(self.prepared, accel, vel))
        return vel

    def flush(self) -> None:
        while self.pending:
            self.pending.pop(0).sync_on(self.s)


class Estimator:
    def __init__(self, dev: sk.Device, s: sk.Stream) -> None:
        self.front = FrontEnd(dev, s)

    def correct(self, vel: sk.DeviceBuffer[f32]) -> None:
        self.front.flush()
        parts = vel.partition((16,))
        print(parts)

    def tick(self) -> None:
        vel = self.front.submit()
        self.correct(vel)


def main() -> None:
    dev = sk.Device.cpu()
    Estimator(dev, dev.new_stream()).tick()
