"""A helper consumes its arguments and hands the launch's values back (`return op.sync_on(stream)`); the caller
rebinds its names to them, so they are live again, and a helper that is recursive is an ordinary call."""

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


def run(out: Partition[f32], src: Tensor[f32], stream: sk.Stream) -> tuple[Partition[f32], Tensor[f32]]:
    return scale(out, src).sync_on(stream)


def repeat(out: Partition[f32], src: Tensor[f32], stream: sk.Stream, n: int) -> Partition[f32]:
    if n == 0:
        return out
    out, src = run(out, src, stream)
    return repeat(out, src, stream, n - 1)


def main() -> None:
    stream = sk.Device.default().new_stream()
    x = tile.ones((128,), f32).sync_on(stream)
    z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    z, x = run(z, x, stream)
    z, x = run(z, x, stream)
    print(x.to_numpy(stream))
    z = repeat(z, tile.ones((128,), f32).sync_on(stream), stream, 2)
    print(z.unpartition().to_numpy(stream))
