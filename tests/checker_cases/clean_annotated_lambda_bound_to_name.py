"""The clean twin of `e0502_annotated_lambda_bound_to_name`: the lambdas bound by annotated assignments are called
with distinct buffers, and what the tile launch moved is read back from the values its `sync_on` returned."""

from collections.abc import Callable
from typing import Any

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


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    apply: Callable[..., None] = lambda lhs, rhs, out: vecadd.launch(prepared, stream, lhs, rhs, out)  # noqa: E731
    apply(a, b, c)
    apply(a, c, b)
    z = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    double_x: Callable[[], Any] = lambda: scale(z, x).sync_on(stream)  # noqa: E731
    z2, x2 = double_x()
    print(x2.to_numpy(stream)[:2], z2.unpartition().to_numpy(stream)[:2])
