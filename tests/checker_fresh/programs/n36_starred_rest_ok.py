# fresh-expect: clean
"""`first, *rest = bufs` sums the rest into a fresh accumulator that is none of them."""
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
bufs = [sk.to_device(np.full(n, float(k), np.float32), stream) for k in range(1, 4)]
first, *rest = bufs
acc = sk.zeros(n, f32, stream)
tmp = sk.zeros(n, f32, stream)
vecadd.launch(prepared, stream, first, rest[0], acc)
for other in rest[1:]:
    vecadd.launch(prepared, stream, acc, other, tmp)
    acc, tmp = tmp, acc
assert (acc.to_numpy(stream) == 6.0).all()
