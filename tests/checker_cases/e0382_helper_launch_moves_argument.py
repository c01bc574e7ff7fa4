"""A helper of this module launches with its parameters (a tile launch moves both): the caller's input is moved
at the call, and reading it afterwards is a use after move (the runtime raises `UseAfterMoveError`)."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def double_into(out: Partition[f32], src: Tensor[f32]) -> sk.DeviceOp:
    return scale(out, src)


def main() -> None:
    stream = sk.Device.default().new_stream()
    x = tile.ones((128,), f32).sync_on(stream)
    z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    double_into(z, x).sync_on(stream)
    print(x.to_numpy(stream))  # expect: E0382
