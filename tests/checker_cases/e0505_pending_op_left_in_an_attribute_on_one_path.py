"""A particle-in-cell step starts the charge deposit as a pending op kept in `self.pending`, and runs it at once
only when overlap is off (`finish` runs it and sets `self.pending = None`).  With overlap on, the field solve
then moves `self.rho` into a tile launch while the pending deposit still borrows it (E0505, as the runtime's
`BorrowError` says): the op is left pending on one path out of `scatter`, and its loans stay with it there."""

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def deposit(xp: Slice[f32], rho: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := rho.get_mut(idx)) is not None:
        o.set(xp[i])


@tile.kernel
def gauss(e: Partition[f32], rho: Tensor[f32]) -> None:
    e.store(tile.load_like(rho, e) * 0.5)


class Sim:
    def __init__(self, dev: sk.Device, overlap: bool) -> None:
        self.stream = dev.new_stream()
        self.xp = sk.zeros(N, f32, self.stream)
        self.rho = sk.zeros(N, f32, self.stream)
        self.prepared = deposit.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
        self.pending: sk.DeviceOp | None = None
        self.overlap = overlap

    def scatter(self) -> None:
        self.pending = deposit.launch_async(self.prepared, self.xp, self.rho)
        if not self.overlap:
            self.finish()

    def finish(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def solve(self) -> None:
        e, rho = gauss(tile.zeros((N,), f32).partition((16,)), self.rho).sync_on(self.stream)  # expect: E0505
        self.rho = sk.as_buffer(rho)
        print(e.unpartition().to_numpy(self.stream)[:2])

    def step(self) -> None:
        self.scatter()
        self.solve()
        self.finish()


def main() -> None:
    Sim(sk.Device.cpu(), overlap=True).step()


if __name__ == "__main__":
    main()
