# fresh-expect: E0499 at line 24
"""An async worker submits one launch per shard and awaits them together at the end."""
import asyncio

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def shift(x: Slice[f32], out: DisjointSlice[f32], delta: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] + delta)


async def submit(prep, x: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32], delta: float) -> sk.DeviceOp:
    await asyncio.sleep(0)
    return shift.launch_async(prep, x, out, delta)


async def run_shards(dev: sk.Device, stream: sk.Stream) -> None:
    n = 256
    prep = shift.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    shards = [sk.to_device(np.full(n, float(k), dtype=np.float32), stream) for k in range(2)]
    results = {k: sk.zeros(n, f32, stream) for k in range(2)}
    target = results[0]
    first = await submit(prep, shards[0], target, 1.0)
    second = await submit(prep, shards[1], target, 2.0)
    sk.zip(first, second).sync_on(stream)
    print(target.to_numpy(stream)[:4])


if __name__ == "__main__":
    cpu = sk.Device.cpu()
    asyncio.run(run_shards(cpu, cpu.new_stream()))
