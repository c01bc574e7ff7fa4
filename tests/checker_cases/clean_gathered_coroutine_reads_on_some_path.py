"""Coroutines `asyncio.gather` runs interleave at their `await`s: a training coroutine keeps a `launch_async` op
that writes the statistics pending across an `await`, while a heartbeat coroutine reads the statistics in a loop,
on some turns only (`if tick % 2 == 0`).  The twin runs the op before its `await`, so
whenever the heartbeat reads, no op is pending."""

import asyncio

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i] * f32(2.0))


async def train(prepared: simt.PreparedLaunch, stream: sk.Stream, src: sk.DeviceBuffer, stats: sk.DeviceBuffer,
                done: asyncio.Event) -> None:
    for _ in range(3):
        op = scale.launch_async(prepared, src, stats)
        op.sync_on(stream)
        await asyncio.sleep(0.001)
    done.set()


async def heartbeat(stream: sk.Stream, stats: sk.DeviceBuffer, done: asyncio.Event) -> list[float]:
    beats: list[float] = []
    tick = 0
    while not done.is_set():
        await asyncio.sleep(0)
        tick += 1
        if tick % 2 == 0:
            beats.append(float(stats.to_numpy(stream).sum()))
    return beats


async def run(dev: sk.Device, stream: sk.Stream) -> None:
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    src = sk.to_device(np.ones(N, np.float32), stream)
    stats = sk.zeros(N, f32, stream)
    done = asyncio.Event()
    _, beats = await asyncio.gather(train(prepared, stream, src, stats, done), heartbeat(stream, stats, done))
    print(len(beats))


def main() -> None:
    dev = sk.Device.cpu()
    asyncio.run(run(dev, dev.new_stream()))
