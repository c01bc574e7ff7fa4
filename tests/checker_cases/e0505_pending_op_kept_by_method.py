"""A method that leaves a pending `launch_async` op in an attribute of its receiver (`self.pending = ...`) lends
the caller's buffers to that op until it runs: another method moving one of them before (here, moving the output
to another device) is refused (`BorrowError` at run time, raised inside that method)."""

from dataclasses import dataclass, field
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def square(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


@dataclass
class Job:
    x: Any
    out: Any
    pending: Any = field(default=None)

    def start(self, dev: sk.Device) -> None:
        prepared = square.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
        self.pending = square.launch_async(prepared, self.x, self.out)

    def ship(self, target: sk.Device, stream: sk.Stream) -> Any:
        return self.out.to(target, stream)  # expect: E0505


def main() -> None:
    dev0, dev1 = sk.Device.cpu(0), sk.Device.cpu(1)
    s0 = dev0.new_stream()
    job = Job(sk.to_device(np.arange(32, dtype=np.float32), s0), sk.zeros(32, f32, s0))
    job.start(dev0)
    job.ship(dev1, dev1.new_stream())
