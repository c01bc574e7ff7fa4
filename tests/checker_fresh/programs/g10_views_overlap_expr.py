# fresh-expect: E0502 at line 26
"""Two views whose literal bounds overlap by a few elements."""
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
buf = sk.to_device(np.arange(96, dtype=np.float32), stream)
b = sk.to_device(np.ones(32, np.float32), stream)
p = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
lo = buf.view(0, 32)
vecadd.launch(p, stream, lo, b, buf.view(30, 62))  # BUG
