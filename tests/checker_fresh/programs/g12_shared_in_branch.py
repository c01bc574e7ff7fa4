# fresh-expect: E0133 at line 31
"""Shared memory allocated only on the fast path, outside an unsafe block."""
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
FAST = True


@simt.kernel
@simt.launch_contract(block=32)
def staged(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if FAST:
        tmp = simt.shared_array(f32, 32)  # BUG
        with simt.unsafe():
            tmp[thread.thread_idx_x()] = a[i]
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i])


a = sk.to_device(np.ones(32, np.float32), stream)
out = sk.zeros(32, f32, stream)
staged.launch(staged.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev), stream, a, out)
