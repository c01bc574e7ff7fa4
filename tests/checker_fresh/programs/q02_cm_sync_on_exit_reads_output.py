# fresh-expect: E0502 at line 38
"""A context manager runs a pending launch when its block ends; the block reads what that launch writes."""
from contextlib import contextmanager

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


@contextmanager
def completes(op, stream):
    """Run `op` when the block ends, however it ends."""
    try:
        yield
    finally:
        op.sync_on(stream)


dev = sk.Device.cpu()
stream = dev.new_stream()
a = sk.to_device(np.ones(256, np.float32), stream)
b = sk.to_device(np.ones(256, np.float32), stream)
c = sk.zeros(256, f32, stream)
d = sk.zeros(256, f32, stream)
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev)
with completes(vecadd.launch_async(prepared, a, b, c), stream):
    vecadd.launch(prepared, stream, c, b, d)  # BUG
print(d.to_numpy(stream)[:4])
