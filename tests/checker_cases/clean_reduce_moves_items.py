"""The clean twin of `e0382_reduce_moves_items`: the folded op is the only one used after
`functools.reduce(sk.zip, ops)`, a list rebuilt after the fold is a new list of new ops, and `map` of a kernel
whose launched ops are synced (the partitions themselves are not touched again)."""

import functools

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@tile.kernel
def fill(z: Partition[f32]) -> None:
    z.store(tile.zeros((32,), f32))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    ops = [scale(tile.zeros((64,), f32).partition((32,)), tile.full((64,), float(k), f32)) for k in range(3)]
    combined = functools.reduce(sk.zip, ops)
    print(combined.sync_on(stream))
    ops = [scale(tile.zeros((64,), f32).partition((32,)), tile.full((64,), float(k), f32)) for k in range(2)]
    first, _ = ops[0].sync_on(stream)
    print(ops[1].sync_on(stream))
    print(first.unpartition().to_numpy(stream)[:2])
    parts = [tile.zeros((64,), f32).partition((32,)), tile.zeros((64,), f32).partition((32,))]
    launched = list(map(fill, parts))
    for op in launched:
        print(op.sync_on(stream))
    total = functools.reduce(lambda x, y: x + y, [1, 2, 3])
    print(total)
