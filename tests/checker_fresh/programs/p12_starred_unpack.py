# fresh-expect: E0502 at line 25
"""Buffers unpacked with a starred target; the last is also the first."""
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
b = sk.to_device(np.ones(128, np.float32), stream)
first, *rest = [a, b, a]
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
vecadd.launch(prepared, stream, rest[0], rest[1], first)  # BUG
