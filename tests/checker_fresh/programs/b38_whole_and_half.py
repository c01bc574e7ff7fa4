# fresh-expect: E0502 at line 25
"""A whole buffer and one of its split_at halves in one launch."""
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


dev = sk.Device.cpu()
stream = dev.new_stream()
data = sk.to_device(np.arange(128, dtype=np.float32), stream)
head, tail = data.split_at(64)
k = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
vecadd.launch(k, stream, data, head, tail)  # BUG E0502
