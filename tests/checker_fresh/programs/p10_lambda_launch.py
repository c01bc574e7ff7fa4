# fresh-expect: E0502 at line 24
"""A lambda wraps the launch; the call site passes the output twice."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
a = sk.to_device(np.ones(128, np.float32), stream)
c = sk.zeros(128, f32, stream)
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
go = lambda x, y, out: vecadd.launch(prepared, stream, x, y, out)
go(a, c, c)  # BUG
