# fresh-expect: E0502 at line 24
"""A match on a (src, dst) plan: the in-place plan names one buffer twice."""
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


def smooth(stream, dev, data, scratch, inplace: bool) -> None:
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    plan = (data, data) if inplace else (data, scratch)
    match plan:
        case (src, dst):
            vecadd.launch(prepared, stream, src, src, dst)  # BUG E0502


dev = sk.Device.cpu()
stream = dev.new_stream()
smooth(stream, dev, sk.to_device(np.ones(64, np.float32), stream), sk.zeros(64, f32, stream), True)
