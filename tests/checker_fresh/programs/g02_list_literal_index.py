# fresh-expect: E0502 at line 26
"""Buffers in a list, picked by literal index; the wrong one."""
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
bufs = [sk.to_device(np.ones(64, np.float32), stream) for _ in range(2)]
bufs.append(sk.zeros(64, f32, stream))
stage = [bufs[0], bufs[1], bufs[2]]
p = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
vecadd.launch(p, stream, stage[0], stage[2], stage[2])  # BUG
