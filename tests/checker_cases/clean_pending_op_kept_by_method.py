"""The clean twin of `e0505_pending_op_kept_by_method`: the op a method left in `self.pending` is run by another
method (`self.pending.sync_on(s)`), or by the moving method itself first, before the output is moved, so nothing
borrows it any more."""

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

    def finish(self, stream: sk.Stream) -> None:
        self.x, self.out = self.pending.sync_on(stream)
        self.pending = None

    def ship(self, target: sk.Device, stream: sk.Stream) -> Any:
        return self.out.to(target, stream)

    def run_then_ship(self, target: sk.Device, stream: sk.Stream, here: sk.Stream) -> Any:
        self.pending.sync_on(here)
        self.pending = None
        return self.out.to(target, stream)


def main() -> None:
    dev0, dev1 = sk.Device.cpu(0), sk.Device.cpu(1)
    s0 = dev0.new_stream()
    job = Job(sk.to_device(np.arange(32, dtype=np.float32), s0), sk.zeros(32, f32, s0))
    job.start(dev0)
    job.finish(s0)
    job.ship(dev1, dev1.new_stream())
    again = Job(sk.to_device(np.arange(32, dtype=np.float32), s0), sk.zeros(32, f32, s0))
    again.start(dev0)
    again.run_then_ship(dev1, dev1.new_stream(), s0)
