"""An item taken from a call of a generator function of the module is what its `yield` gives: a pending
`launch_async` op it yields keeps its loans in the caller (`next(gen(...))`, `for op in gen(...)`, `async for`
over an async generator, a nested generator over the caller's buffers), so partitioning the output before the op
runs moves a borrowed buffer."""

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


def launches(prep: Any, a: sk.DeviceBuffer, c: sk.DeviceBuffer) -> Iterator[Any]:
    yield scale.launch_async(prep, a, c, 2.0)


async def pending_launches(prep: Any, a: sk.DeviceBuffer, c: sk.DeviceBuffer) -> AsyncIterator[Any]:
    await asyncio.sleep(0)
    yield scale.launch_async(prep, a, c, 2.0)


def next_of_a_generator() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(N, np.float32), stream)
    c = sk.zeros(N, f32, stream)
    prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    op = next(launches(prep, a, c))
    c.partition((64,))  # expect: E0505
    op.sync_on(stream)


def loop_over_a_generator() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(N, np.float32), stream)
    c = sk.zeros(N, f32, stream)
    prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    for op in launches(prep, a, c):
        c.partition((64,))  # expect: E0505
        op.sync_on(stream)
        break


def nested_generator() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(N, np.float32), stream)
    c = sk.zeros(N, f32, stream)
    prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)

    def gen() -> Iterator[Any]:
        yield scale.launch_async(prep, a, c, 2.0)

    op = next(gen())
    c.partition((64,))  # expect: E0505
    op.sync_on(stream)


async def loop_over_an_async_generator() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(N, np.float32), stream)
    c = sk.zeros(N, f32, stream)
    prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    async for op in pending_launches(prep, a, c):
        c.partition((64,))  # expect: E0505
        op.sync_on(stream)
        break


def main() -> None:
    next_of_a_generator()
    loop_over_a_generator()
    nested_generator()
    asyncio.run(loop_over_an_async_generator())


if __name__ == "__main__":
    main()
