# fresh-expect: E0308 at line 35
"""Prepared launches kept in a dict; the scale kernel gets vecadd's."""
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
def scale(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] * 2.0)


cfg = simt.LaunchConfig1D.for_len(64, block=32)
launches = {"add": vecadd.prepare(cfg, dev), "scale": scale.prepare(cfg, dev)}
a = sk.to_device(np.ones(64, np.float32), stream)
out = sk.zeros(64, f32, stream)
scale.launch(launches["add"], stream, a, out)  # BUG
