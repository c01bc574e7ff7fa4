# fresh-expect: E0499 at line 22
"""Two coroutines each submit an async launch into the same output buffer, gathered together."""
import asyncio

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


async def submit(prepared, x, out):
    return vecadd.launch_async(prepared, x, x, out)


async def main(dev, stream):
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    a = sk.to_device(np.ones(128, np.float32), stream)
    b = sk.to_device(np.full(128, 2.0, np.float32), stream)
    c = sk.zeros(128, f32, stream)
    ops = await asyncio.gather(submit(prepared, a, c), submit(prepared, b, c))  # BUG
    for op in ops:
        op.sync_on(stream)
    return c.to_numpy(stream)


dev = sk.Device.cpu()
print(asyncio.run(main(dev, dev.new_stream()))[:4])
