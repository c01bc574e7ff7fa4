"""A `launch_async` op's value is the tuple of the launch's own arguments (the same buffer objects, not copies):
after `a, b, c = op.sync_on(stream)` (also through `shared` / `zip` / `first`), `a` may be the buffer an older
alias still names, and a launch taking both borrows one buffer twice."""

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


def main(flag: bool = True) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    c = sk.zeros(32, f32, stream)
    bufs = [a, b, c]
    op = vecadd.launch_async(prep, b if flag else a, a, c)
    a, b, c = op.sync_on(stream)
    vecadd.launch(prep, stream, a, a, bufs[1])  # expect: E0502
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    p = vecadd.launch_async(prep, a, b, c)
    q = p.zip(tile.ones((4,), f32))
    (x, _y, z), _ = q.sync_on(stream)
    vecadd.launch(prep, stream, a, b, z)
    vecadd.launch(prep, stream, a, b, x)  # expect: E0502
    p = vecadd.launch_async(prep, c, b, a)
    shared = p.shared()
    x, _y, _z = shared.sync_on(stream)
    vecadd.launch(prep, stream, b, c, x)  # expect: E0502
    p = vecadd.launch_async(prep, b, a, c)
    first = p.first()
    x = first.sync_on(stream)
    vecadd.launch(prep, stream, a, b, x)  # expect: E0502
