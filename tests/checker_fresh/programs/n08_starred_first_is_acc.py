# fresh-expect: E0502 at line 29
"""Sum a list into its first buffer: `first, *rest = bufs` makes `first` the accumulator itself."""
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
acc = sk.zeros(n, f32, stream)
ones = sk.to_device(np.ones(n, np.float32), stream)
twos = sk.to_device(np.full(n, 2.0, np.float32), stream)
bufs = [acc, ones, twos]
first, *rest = bufs
for other in rest:
    vecadd.launch(prepared, stream, first, other, acc)  # BUG E0502 (`first` is `acc`)
