"""Two launches read one `.shared()` op: using a shared op never moves it."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main(flag: bool = True) -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    b = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    c = sk.zeros(1000, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(1000, block=256), dev)
    s = tile.ones((1000,), f32).shared()
    z1, _, _ = add(tile.zeros((1000,), f32).partition((256,)), s, s).sync_on(stream)
    z2, _, _ = add(tile.zeros((1000,), f32).partition((256,)), s, tile.ones((1000,), f32)).sync_on(stream)
    print(z1, z2, s.sync_on(stream))
