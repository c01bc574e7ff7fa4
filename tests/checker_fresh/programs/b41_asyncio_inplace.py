# fresh-expect: E0502 at line 25
"""An asyncio worker launches in place."""
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

import asyncio


async def worker(buf, bias, dev, stream) -> None:
    await asyncio.sleep(0)
    k = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    vecadd.launch(k, stream, buf, bias, buf)  # BUG E0502


dev = sk.Device.cpu()
stream = dev.new_stream()
asyncio.run(worker(sk.zeros(32, f32, stream), sk.zeros(32, f32, stream), dev, stream))
