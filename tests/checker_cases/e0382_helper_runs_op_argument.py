"""A helper runs the op it is handed (`op.sync_on(stream)` consumes it); running the same op again in the caller
is a use after move, noted inside the helper."""

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


def finish(op: sk.DeviceOp, stream: sk.Stream) -> Partition[f32]:
    values = op.sync_on(stream)
    return values[0]


def main() -> None:
    stream = sk.Device.default().new_stream()
    op = scale(tile.zeros((128,), f32).partition((64,)).sync_on(stream), tile.ones((128,), f32).sync_on(stream))
    z = finish(op, stream)
    print(z)
    again = op.sync_on(stream)  # expect: E0382
    print(again)
