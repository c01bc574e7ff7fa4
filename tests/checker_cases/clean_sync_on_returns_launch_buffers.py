"""The clean twin of `e0502_sync_on_returns_launch_buffers`: the names an op's value rebinds are the launch's own
buffers, each still one buffer, so launches that take distinct ones (also after a loop and a rebinding of the
op) are fine."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def main(n: int = 2) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    c = sk.zeros(32, f32, stream)
    bufs = [a, b, c]
    op = vecadd.launch_async(prep, a, b, c)
    a, b, c = op.sync_on(stream)
    vecadd.launch(prep, stream, a, b, bufs[2])
    for _ in range(n):
        p = vecadd.launch_async(prep, a, b, c)
        q = p.zip(tile.ones((4,), f32))
        (x, y, z), _ = q.sync_on(stream)
        vecadd.launch(prep, stream, x, y, z)
        c = sk.zeros(32, f32, stream)
        vecadd.launch(prep, stream, z, y, c)
    p = vecadd.launch_async(prep, c, b, a)
    shared = p.shared()
    x, y, z = shared.sync_on(stream)
    vecadd.launch(prep, stream, y, z, x)
    p = vecadd.launch_async(prep, b, a, c)
    first = p.first()
    x = first.sync_on(stream)
    vecadd.launch(prep, stream, a, x, c)
