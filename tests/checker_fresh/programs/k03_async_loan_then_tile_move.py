# fresh-expect: E0505 at line 35
"""A pending SIMT launch writes out; out is handed to a tile launch (a move) before the sync."""
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
from safekernels import tile
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


a = sk.to_device(np.ones(64, np.float32), stream)
out = sk.zeros(64, f32, stream)
p = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
pending = vecadd.launch_async(p, a, a, out)
op = double(tile.zeros((64,), f32).partition((32,)), out)  # BUG
pending.sync_on(stream)
op.sync_on(stream)
