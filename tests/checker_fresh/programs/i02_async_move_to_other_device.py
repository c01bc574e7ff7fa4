# fresh-expect: E0505 at line 29
"""An async launch reads a; a is moved to another device before the sync."""
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


dev = sk.Device.cpu()
stream = dev.new_stream()
dev1 = sk.Device.cpu(1)
s1 = dev1.new_stream()
a = sk.to_device(np.ones(64, np.float32), stream)
b = sk.to_device(np.ones(64, np.float32), stream)
out = sk.zeros(64, f32, stream)
p = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
op = vecadd.launch_async(p, a, b, out)
a_moved = a.to(dev1, s1)  # BUG
op.sync_on(stream)
