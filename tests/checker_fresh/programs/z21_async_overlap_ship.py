# fresh-expect: E0505 at line 44
# fresh-note: found since: asyncio.gather checks each coroutine against the loans the earlier ones leave pending at their awaits (compute's op pending across its sleep meets ship's .to() of shard.scaled)
"""Overlap compute and transfer with asyncio: one coroutine scales a gradient shard on
the device, another ships the finished shard to the parameter-server device."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1024


@simt.kernel
@simt.launch_contract(block=256)
def scale(src: Slice[f32], out: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(k * src[i])


@dataclass
class Shard:
    grad: sk.DeviceBuffer
    scaled: sk.DeviceBuffer
    shipped: sk.DeviceBuffer | None = None


async def compute(shard: Shard, prepared, stream: sk.Stream, world: int) -> None:
    op = scale.launch_async(prepared, shard.grad, shard.scaled, 1.0 / world)
    await asyncio.sleep(0)  # let the other coroutines run while the kernel is queued
    op.sync_on(stream)


async def ship(shard: Shard, server: sk.Device, server_stream: sk.Stream) -> None:
    print(f"shipping {len(shard.scaled)} values to {server}")
    shard.shipped = shard.scaled.to(server, server_stream)


async def step(world: int = 4) -> Shard:
    dev = sk.Device.default()
    stream = dev.new_stream()
    server = sk.Device.cpu()
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=256), dev)
    shard = Shard(grad=sk.to_device(np.full(N, 2.0, np.float32), stream), scaled=sk.zeros(N, f32, stream))
    await asyncio.gather(compute(shard, prepared, stream, world), ship(shard, server, server.new_stream()))
    return shard


def main() -> None:
    shard = asyncio.run(step())
    assert shard.shipped is not None
    print("server copy:", shard.shipped.to_numpy(sk.Device.cpu().new_stream())[:4])


if __name__ == "__main__":
    main()
