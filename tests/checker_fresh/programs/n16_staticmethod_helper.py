# fresh-expect: E0502 at line 28
"""A namespace class of static helpers; the caller passes one buffer as input and output."""
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


class Ops:
    @staticmethod
    def add_into(out, lhs, rhs) -> None:
        vecadd.launch(prepared, stream, lhs, rhs, out)


a = sk.to_device(np.ones(n, np.float32), stream)
b = sk.to_device(np.ones(n, np.float32), stream)
Ops.add_into(a, a, b)  # BUG E0502
