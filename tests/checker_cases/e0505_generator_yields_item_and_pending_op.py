"""A generator function of the module yields tuples of an output buffer and the pending `launch_async` op that
writes it (`yield out, scale.launch_async(prep, a, out, 2.0)`), the output an item of its parameter's list of
jobs or the parameter itself.  A loop unpacking the items (`for out, op in launches(...)`, `async for` over an
async generator) gets the caller's buffer and an op that still borrows it, so partitioning the output before the
op runs moves a borrowed buffer."""

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def scale(a: Slice[f32], out: DisjointSlice[f32], k: float) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * k)


def launches(prep: Any, jobs: list[tuple[sk.DeviceBuffer, sk.DeviceBuffer]]) -> Iterator[tuple[Any, Any]]:
    for a, out in jobs:
        yield out, scale.launch_async(prep, a, out, 2.0)


async def pending_launch(prep: Any, a: sk.DeviceBuffer, out: sk.DeviceBuffer) -> AsyncIterator[tuple[Any, Any]]:
    await asyncio.sleep(0)
    yield out, scale.launch_async(prep, a, out, 2.0)


def loop_over_jobs() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    jobs = [(sk.to_device(np.ones(N, np.float32), stream), sk.zeros(N, f32, stream))]
    prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    for out, op in launches(prep, jobs):
        parts = out.partition((64,))  # expect: E0505
        op.sync_on(stream)
        parts.unpartition()


async def loop_over_an_async_generator() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(N, np.float32), stream)
    c = sk.zeros(N, f32, stream)
    prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    async for out, op in pending_launch(prep, a, c):
        parts = out.partition((64,))  # expect: E0505
        op.sync_on(stream)
        parts.unpartition()
        break


def main() -> None:
    loop_over_jobs()
    asyncio.run(loop_over_an_async_generator())


if __name__ == "__main__":
    main()
