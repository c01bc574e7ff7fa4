"""A helper that binds its pending `launch_async` op to a name and returns the name (`op = k.launch_async(...)`,
`return op`) hands the op's loans to its caller, as one returning the launch itself does: an `async def` handler that
awaits before returning it, gathered twice with one output (`await asyncio.gather(...)`), is E0499 at the second
handler's call; two plain calls of such a helper writing one buffer are E0499 at the second (the runtime raises
`BorrowError` at each marked line)."""

import asyncio

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


async def handle(prep: simt.PreparedLaunch, request: sk.DeviceBuffer, response: sk.DeviceBuffer) -> sk.DeviceOp:
    op = scale.launch_async(prep, request, response, 2.0)  # expect: E0499
    await asyncio.sleep(0)
    return op


def submit(prep: simt.PreparedLaunch, x: sk.DeviceBuffer, out: sk.DeviceBuffer) -> sk.DeviceOp:
    op = scale.launch_async(prep, x, out, 0.5)  # expect: E0499
    return op


async def serve(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    req_a = sk.to_device(np.ones(n, np.float32), stream)
    req_b = sk.to_device(np.full(n, 3.0, np.float32), stream)
    response = sk.zeros(n, f32, stream)
    ops = await asyncio.gather(handle(prep, req_a, response), handle(prep, req_b, response))
    for op in ops:
        op.sync_on(stream)


def twice(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    x = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)
    first = submit(prep, x, out)
    second = submit(prep, x, out)
    first.sync_on(stream)
    second.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    asyncio.run(serve(dev, stream, 64))
    twice(dev, stream, 64)


if __name__ == "__main__":
    main()
