# fresh-expect: E0505 at line 37
"""Pending launches are grouped per stream in a defaultdict and drained at the end; the output is partitioned for a
tile stage before the drain."""
from collections import defaultdict

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


def pipeline(dev, n: int):
    streams = {"copy": dev.new_stream(), "compute": dev.new_stream()}
    inflight = defaultdict(list)
    a = sk.to_device(np.ones(n, np.float32), streams["copy"])
    b = sk.to_device(np.ones(n, np.float32), streams["copy"])
    c = sk.zeros(n, f32, streams["copy"])
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    inflight["compute"].append(vecadd.launch_async(prepared, a, b, c))
    post = double(c.partition((64,)), tile.ones((n,), f32))  # BUG
    for name, ops in inflight.items():
        for op in ops:
            op.sync_on(streams[name])
    out, _ = post.sync_on(streams["compute"])
    return out.unpartition().to_numpy(streams["compute"])[:4]


print(pipeline(sk.Device.cpu(), 256))
