# fresh-expect: E0502 at line 27
"""Buffers kept in a dict by role; the roles got mixed up."""
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
bufs = {
    "lhs": sk.to_device(np.ones(64, np.float32), stream),
    "rhs": sk.to_device(np.ones(64, np.float32), stream),
    "out": sk.zeros(64, f32, stream),
}
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
vecadd.launch(prepared, stream, bufs["lhs"], bufs["out"], bufs["out"])  # BUG E0502
