# fresh-expect: E0502 at line 30
"""A factory returns the input and output pair; on this path both are the same buffer."""
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

def make_pair(stream, reuse: bool):
    x = sk.to_device(np.ones(128, np.float32), stream)
    if reuse:
        return x, x
    return x, sk.zeros(128, f32, stream)


dev = sk.Device.cpu()
stream = dev.new_stream()
src, dst = make_pair(stream, True)
b = sk.to_device(np.ones(128, np.float32), stream)
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
vecadd.launch(prepared, stream, src, b, dst)  # BUG
