# fresh-expect: E0505 at line 34
"""first() of a pending async op keeps its loans: the output cannot move yet."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=32)
def vecsub(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] - b[i])


dev0, dev1 = sk.Device.cpu(0), sk.Device.cpu(1)
s0, s1 = dev0.new_stream(), dev1.new_stream()
a = sk.to_device(np.ones(32, np.float32), s0)
c = sk.zeros(32, f32, s0)
only_a = vecadd.launch_async(vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev0), a, a, c).first()
c_remote = c.to(dev1, s1)  # BUG E0505
only_a.sync_on(s0)
