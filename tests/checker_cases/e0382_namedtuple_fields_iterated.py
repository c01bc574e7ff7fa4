"""A `NamedTuple` instance is a tuple of its fields: `add(*args)` passes `args.out, args.x, args.y` in declaration
order, so the tile launch moves `x` and `y` (which `args.x` and `args.y` refer to) and a later use of either is a
use of a moved value.  Unpacking (`o, a, b = args`) and iterating (`for t in args`) give the fields too."""

from typing import NamedTuple

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def twice(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


class Operands(NamedTuple):
    out: tile.Partition
    x: tile.Tensor
    y: tile.Tensor


class Pair(NamedTuple):
    x: tile.Tensor
    y: tile.Tensor


def splatted(stream: sk.Stream) -> None:
    x, y = tile.ones((64,), f32).sync_on(stream), tile.ones((64,), f32).sync_on(stream)
    args = Operands(tile.zeros((64,), f32).partition((32,)).sync_on(stream), x, y)
    total, *_ = add(*args).sync_on(stream)
    print(total.unpartition().to_numpy(stream)[:2])
    print(args.x.to_numpy(stream)[:2])  # expect: E0382


def unpacked(stream: sk.Stream) -> None:
    x, y = tile.ones((64,), f32).sync_on(stream), tile.ones((64,), f32).sync_on(stream)
    args = Operands(tile.zeros((64,), f32).partition((32,)).sync_on(stream), x, y)
    out, a, b = args
    total, *_ = add(out, a, b).sync_on(stream)
    print(total.unpartition().to_numpy(stream)[:2])
    print(y.to_numpy(stream)[:2])  # expect: E0382


def iterated(stream: sk.Stream) -> None:
    x, y = tile.ones((64,), f32).sync_on(stream), tile.ones((64,), f32).sync_on(stream)
    pair = Pair(x, y)
    for t in pair:
        doubled, *_ = twice(tile.zeros((64,), f32).partition((32,)), t).sync_on(stream)
        print(doubled.unpartition().to_numpy(stream)[:2])
    print(x.to_numpy(stream)[:2])  # expect: E0382


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    splatted(stream)
    unpacked(stream)
    iterated(stream)


main()
