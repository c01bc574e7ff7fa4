# fresh-expect: clean
"""A recursive pairwise sum writes each level into the upper half's scratch, never the half it reads."""
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


def tree_sum(buf, scratch, n: int, dev, stream):
    if n <= 16:
        return buf
    lo, hi = buf.split_at(n // 2)
    out, rest = scratch.split_at(n // 2)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n // 2, block=64), dev)
    vecadd.launch(prepared, stream, lo, hi, out)
    return tree_sum(out, lo, n // 2, dev, stream)


dev = sk.Device.cpu()
stream = dev.new_stream()
res = tree_sum(sk.to_device(np.ones(128, np.float32), stream), sk.zeros(128, f32, stream), 128, dev, stream)
print(res.to_numpy(stream)[:4])
