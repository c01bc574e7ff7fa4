# fresh-expect: E0502 at line 24
"""A recursive pairwise sum adds the upper half into the lower half in place."""
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


def tree_sum(buf, n: int, dev, stream):
    if n <= 16:
        return buf
    lo, hi = buf.split_at(n // 2)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n // 2, block=64), dev)
    vecadd.launch(prepared, stream, lo, hi, lo)  # BUG E0502
    return tree_sum(lo, n // 2, dev, stream)


dev = sk.Device.cpu()
stream = dev.new_stream()
print(tree_sum(sk.to_device(np.ones(128, np.float32), stream), 128, dev, stream).to_numpy(stream)[:4])
