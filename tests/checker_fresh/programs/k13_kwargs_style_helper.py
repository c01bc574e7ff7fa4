# fresh-expect: E0502 at line 23
"""A wrapper with keyword arguments passes the output as an input."""
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
def add_into(*, lhs, rhs, out, prepared) -> None:
    vecadd.launch(prepared, stream, lhs, rhs, out)


a = sk.to_device(np.ones(64, np.float32), stream)
out = sk.zeros(64, f32, stream)
p = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
add_into(lhs=a, rhs=out, out=out, prepared=p)  # BUG
