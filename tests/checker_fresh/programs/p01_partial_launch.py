# fresh-expect: E0502 at line 26
"""A partial application of the launch, called with the output also as an input."""
import functools
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
run = functools.partial(vecadd.launch, prepared, stream)
run(a, c, c)  # BUG
