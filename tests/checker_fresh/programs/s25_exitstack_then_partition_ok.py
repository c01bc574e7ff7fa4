# fresh-expect: clean
"""An ExitStack syncs the pending launch on exit; the output is partitioned for the tile stage only after the block."""
from contextlib import ExitStack

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def run(dev, stream, n: int):
    a = sk.to_device(np.ones(n, np.float32), stream)
    b = sk.to_device(np.ones(n, np.float32), stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    with ExitStack() as stack:
        pending = vecadd.launch_async(prepared, a, b, c)
        stack.callback(pending.sync_on, stream)
        print("queued", a.to_numpy(stream)[:2])
    parts = c.partition((64,))
    out, _ = double(parts, tile.ones((n,), f32)).sync_on(stream)
    return out.unpartition().to_numpy(stream)[:4]


dev = sk.Device.cpu()
print(run(dev, dev.new_stream(), 256))
