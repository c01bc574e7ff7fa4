# fresh-expect: E0505 at line 33
"""A dataclass keeps a pending async launch; a method moves the output away too early."""
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

    def start(self, dev) -> None:
        prepared = square.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
        self.pending = square.launch_async(prepared, self.x, self.out)

    def ship(self, target, stream):
        return self.out.to(target, stream)  # BUG E0505


dev0 = sk.Device.cpu(0)
s0 = dev0.new_stream()
job = Job(sk.to_device(np.arange(32, dtype=np.float32), s0), sk.zeros(32, f32, s0))
job.start(dev0)
job.ship(sk.Device.cpu(1), sk.Device.cpu(1).new_stream())
