# fresh-expect: E0502 at line 23
"""A lambda names the argument order once; one call passes the output as the left operand."""
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
n = 64
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
apply = lambda lhs, rhs, out: vecadd.launch(prepared, stream, lhs, rhs, out)  # noqa: E731
a = sk.to_device(np.arange(n, dtype=np.float32), stream)
b = sk.to_device(np.ones(n, np.float32), stream)
c = sk.zeros(n, f32, stream)
apply(a, b, c)
apply(c, b, c)  # BUG E0502
