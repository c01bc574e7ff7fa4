"""The clean twin of `e0505_gathered_coroutine_moves_pending_output`: the producer syncs its op before it awaits, and
the shipping coroutine waits for an `asyncio.Event` the computing one sets once its op is synced, so no coroutine
moves a buffer another one's pending op still writes."""

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
    op.sync_on(stream)
    await asyncio.sleep(0)  # nothing is pending while the other coroutines run


async def consume(stream: sk.Stream, out: sk.DeviceBuffer) -> None:
    await asyncio.sleep(0)
    double(tile.zeros((N,), f32).partition((64,)), out).sync_on(stream)


async def compute(shard: Shard, prepared: simt.PreparedLaunch, stream: sk.Stream, ready: asyncio.Event) -> None:
    op = scale.launch_async(prepared, shard.grad, shard.scaled)
    await asyncio.sleep(0)
    op.sync_on(stream)
    ready.set()


async def ship(shard: Shard, server: sk.Device, stream: sk.Stream, ready: asyncio.Event) -> sk.DeviceBuffer:
    await ready.wait()  # only once the scaled values are written
    return shard.scaled.to(server, stream)


async def run(dev: sk.Device, stream: sk.Stream) -> None:
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    src = sk.to_device(np.ones(N, np.float32), stream)
    out = sk.zeros(N, f32, stream)
    await asyncio.gather(produce(prepared, stream, src, out), consume(stream, out))
    shard = Shard(sk.to_device(np.ones(N, np.float32), stream), sk.zeros(N, f32, stream))
    ready = asyncio.Event()
    await asyncio.gather(compute(shard, prepared, stream, ready), ship(shard, dev, dev.new_stream(), ready))


def main() -> None:
    dev = sk.Device.cpu()
    asyncio.run(run(dev, dev.new_stream()))
