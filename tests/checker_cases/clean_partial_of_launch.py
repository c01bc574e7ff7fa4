"""The clean twin of `e0502_partial_of_launch`: partials of a launch, a helper and a tile kernel called with
distinct buffers; a name a partial was built from and then rebound does not change what the partial passes (the
partial keeps the object it was given), and the values a consuming partial hands back are the ones used."""

import functools
from functools import partial

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def add_twice(prepared: simt.PreparedLaunch, stream: sk.Stream, lhs: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
    vecadd.launch(prepared, stream, lhs, lhs, out)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    run = functools.partial(vecadd.launch, prepared, stream)
    run(a, b, c)
    from_a = partial(vecadd.launch, prepared, stream, a)
    a = c
    from_a(b, c)
    twice_into_c = partial(add_twice, prepared, stream, out=c)
    twice_into_c(b)
    twice_into_c(b, out=a)
    z = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    double_into_z = partial(scale, z)
    z2, x2 = double_into_z(x).sync_on(stream)
    print(z2.unpartition().to_numpy(stream)[:2], x2.to_numpy(stream)[:2])
