"""Coroutines `asyncio.gather` runs interleave at their `await`s: one suspended with a pending `launch_async` op
that still writes its output lets the others run, and one that moves that output meanwhile (a tile launch, `.to()`)
meets the op's loan.  The runtime raises where the second coroutine moves it."""

import asyncio
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i] * f32(2.0))


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@dataclass
class Shard:
    grad: sk.DeviceBuffer
    scaled: sk.DeviceBuffer


async def produce(prepared: simt.PreparedLaunch, stream: sk.Stream, src: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
    op = scale.launch_async(prepared, src, out)
    await asyncio.sleep(0.01)  # the op is still pending while the other coroutine runs its next step
    op.sync_on(stream)


async def consume(stream: sk.Stream, out: sk.DeviceBuffer) -> None:
    await asyncio.sleep(0)
    double(tile.zeros((N,), f32).partition((64,)), out).sync_on(stream)  # expect: E0505


async def compute(shard: Shard, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    op = scale.launch_async(prepared, shard.grad, shard.scaled)
    await asyncio.sleep(0)
    op.sync_on(stream)


async def ship(shard: Shard, server: sk.Device, stream: sk.Stream) -> sk.DeviceBuffer:
    return shard.scaled.to(server, stream)  # expect: E0505


async def run(dev: sk.Device, stream: sk.Stream) -> None:
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    src = sk.to_device(np.ones(N, np.float32), stream)
    out = sk.zeros(N, f32, stream)
    await asyncio.gather(produce(prepared, stream, src, out), consume(stream, out))
    shard = Shard(sk.to_device(np.ones(N, np.float32), stream), sk.zeros(N, f32, stream))
    await asyncio.gather(compute(shard, prepared, stream), ship(shard, dev, dev.new_stream()))


def main() -> None:
    dev = sk.Device.cpu()
    asyncio.run(run(dev, dev.new_stream()))
