# fresh-expect: E0505 at line 42
# fresh-note: found since: a generator yielding tuples gives its parts to `async for out, pending in ...`
"""An async generator yields (output, pending op) pairs; the `async for` body partitions the output for the tile
stage before awaiting the op."""
import asyncio

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


async def launches(prepared, jobs):
    for a, b, out in jobs:
        await asyncio.sleep(0)
        yield out, axpy.launch_async(prepared, a, b, out)


async def run(dev, stream, n: int) -> list:
    jobs = [(sk.to_device(np.ones(n, np.float32), stream), sk.to_device(np.ones(n, np.float32), stream),
             sk.zeros(n, f32, stream))]
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    results = []
    async for out, pending in launches(prepared, jobs):
        parts = out.partition((64,))  # BUG
        pending.sync_on(stream)
        z, _ = double(parts, tile.ones((n,), f32)).sync_on(stream)
        results.append(z.unpartition().to_numpy(stream)[0])
    return results


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print(asyncio.run(run(dev, dev.new_stream(), 128)))
