# fresh-expect: E0382 at line 28
"""Two async launches zipped into one op; `first()` is taken as if it only peeked, then the zipped op is synced."""
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
c = sk.zeros(128, f32, stream)
d = sk.zeros(128, f32, stream)
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
both = vecadd.launch_async(prepared, a, b, c).zip(vecadd.launch_async(prepared, b, b, d))
head = both.first()
(_, _, c_out), (_, _, d_out) = both.sync_on(stream)  # BUG
print(c_out.to_numpy(stream)[:2], d_out.to_numpy(stream)[:2])
