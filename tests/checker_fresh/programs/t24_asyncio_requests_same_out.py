# fresh-expect: E0499 at line 25
# Both gathered handlers await before returning the pending op that writes `response`.
"""An asyncio server handles two requests concurrently; both handlers were given the shared response buffer."""

import asyncio

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


async def handle(prep, request, response, gain: float):
    op = scale.launch_async(prep, request, response, gain)
    await asyncio.sleep(0)
    return op


async def serve(dev, stream) -> list:
    n = 256
    prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    req_a = sk.to_device(np.ones(n, np.float32), stream)
    req_b = sk.to_device(np.full(n, 3.0, np.float32), stream)
    response = sk.zeros(n, f32, stream)
    # BUG: both handlers write `response`
    ops = await asyncio.gather(handle(prep, req_a, response, 2.0), handle(prep, req_b, response, 0.5))
    for op in ops:
        op.sync_on(stream)
    return [response.to_numpy(stream)[:2]]


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print(asyncio.run(serve(dev, dev.new_stream())))
