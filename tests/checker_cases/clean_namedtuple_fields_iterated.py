"""The look-alike of `e0382_namedtuple_fields_iterated`: the fields are read before the launch moves them (or the
launch hands them back), and a `@dataclass`'s fields are passed one by one (a dataclass is not iterable)."""

from dataclasses import dataclass
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


@dataclass
class Fields:
    out: tile.Partition
    x: tile.Tensor
    y: tile.Tensor


def splatted(stream: sk.Stream) -> None:
    x, y = tile.ones((64,), f32).sync_on(stream), tile.ones((64,), f32).sync_on(stream)
    args = Operands(tile.zeros((64,), f32).partition((32,)).sync_on(stream), x, y)
    print(args.x.to_numpy(stream)[:2])
    total, *_ = add(*args).sync_on(stream)
    print(total.unpartition().to_numpy(stream)[:2])


def unpacked(stream: sk.Stream) -> None:
    x, y = tile.ones((64,), f32).sync_on(stream), tile.ones((64,), f32).sync_on(stream)
    args = Operands(tile.zeros((64,), f32).partition((32,)).sync_on(stream), x, y)
    out, a, b = args
    total, a, b = add(out, a, b).sync_on(stream)
    print(total.unpartition().to_numpy(stream)[:2], b.to_numpy(stream)[:2])


def iterated(stream: sk.Stream) -> None:
    x, y = tile.ones((64,), f32).sync_on(stream), tile.ones((64,), f32).sync_on(stream)
    pair = Pair(x, y)
    for t in pair:
        doubled, *_ = twice(tile.zeros((64,), f32).partition((32,)), t).sync_on(stream)
        print(doubled.unpartition().to_numpy(stream)[:2])
    print("both fields doubled")


def fields(stream: sk.Stream) -> None:
    x, y = tile.ones((64,), f32).sync_on(stream), tile.ones((64,), f32).sync_on(stream)
    held = Fields(tile.zeros((64,), f32).partition((32,)).sync_on(stream), x, y)
    total, held.x, held.y = add(held.out, held.x, held.y).sync_on(stream)
    print(total.unpartition().to_numpy(stream)[:2], held.x.to_numpy(stream)[:2])


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    splatted(stream)
    unpacked(stream)
    iterated(stream)
    fields(stream)


main()
