# fresh-expect: clean
"""A generator of (input, output) pairs over disjoint halves, consumed by a for loop with starred targets."""
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


def halves(buf, out, n: int):
    lo, hi = buf.split_at(n // 2)
    olo, ohi = out.split_at(n // 2)
    yield lo, olo, "low"
    yield hi, ohi, "high"


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 128
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n // 2, block=64), dev)
src = sk.to_device(np.ones(n, np.float32), stream)
dst = sk.zeros(n, f32, stream)
for part, target, *label in halves(src, dst, n):
    vecadd.launch(prepared, stream, part, part, target)
assert (dst.to_numpy(stream) == 2.0).all()
