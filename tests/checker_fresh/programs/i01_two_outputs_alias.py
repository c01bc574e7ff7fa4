# fresh-expect: E0499 at line 34
"""A kernel with two outputs; both given the same buffer through an alias."""
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
@simt.kernel
@simt.launch_contract(block=32)
def split(a: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := lo.get_mut(idx)) is not None:
        o.set(a[i])


a = sk.to_device(np.ones(32, np.float32), stream)
out = sk.zeros(32, f32, stream)
other = out
split.launch(split.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev), stream, a, out, other)  # BUG
