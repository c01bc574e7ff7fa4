# fresh-expect: clean
"""Halves computed from the length: disjoint windows."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def halves(buf, n: int, dev, stream) -> None:
    h = n // 2
    lower = buf.view(0, h)
    upper = buf.view(h, n)
    k = vecadd.prepare(simt.LaunchConfig1D.for_len(h, block=32), dev)
    vecadd.launch(k, stream, lower, lower, upper)


dev = sk.Device.cpu()
stream = dev.new_stream()
data = sk.to_device(np.arange(64, dtype=np.float32), stream)
halves(data, 64, dev, stream)
assert data.to_numpy(stream)[33] == 2.0
