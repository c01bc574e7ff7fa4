"""A helper of this module that only reads its argument (`to_numpy` borrows it for the call) leaves the caller's
value alive; one that launches with a fresh copy moves the copy, not the caller's value."""

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


def total(src: Tensor[f32], stream: sk.Stream) -> float:
    return float(src.to_numpy(stream).sum())


def double_copy(src: Tensor[f32], stream: sk.Stream) -> Tensor[f32]:
    copy = tile.ones((128,), f32).sync_on(stream)
    out = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    out, copy = scale(out, copy).sync_on(stream)
    print(total(copy, stream))
    return out.unpartition()


def main() -> None:
    stream = sk.Device.default().new_stream()
    x = tile.ones((128,), f32).sync_on(stream)
    print(total(x, stream))
    y = double_copy(x, stream)
    print(x.to_numpy(stream), y)
