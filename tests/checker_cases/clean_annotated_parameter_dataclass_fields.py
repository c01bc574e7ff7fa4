"""A parameter annotated with a dataclass of the module whose device fields are moved and then given back (the
partition's result stored into the field, `functools.reduce` of a `functools.partial` whose result replaces the
field): every later read is of the new value, and the runtime runs it."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def accumulate(acc: Partition[f32], g: Tensor[f32]) -> None:
    acc.store(acc.load() + tile.load_like(g, acc))


@dataclass
class Grad:
    values: tile.Tensor
    steps: int = 0


@dataclass
class Param:
    name: str
    grad: Grad


def fold(stream: sk.Stream, acc: tile.Tensor, micro: np.ndarray) -> tile.Tensor:
    part, _ = accumulate(acc.partition((32,)), tile.from_numpy(micro)).sync_on(stream)
    return part.unpartition()


def direct(grad: Grad, stream: sk.Stream) -> None:
    part = grad.values.partition((32,))
    grad.values = part.unpartition()
    print(grad.values.to_numpy(stream)[:1])


def folded(param: Param, micros: list[np.ndarray], stream: sk.Stream) -> None:
    param.grad.values = functools.reduce(functools.partial(fold, stream), micros, param.grad.values)
    print(param.grad.values.to_numpy(stream)[:1])


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    micros = [np.ones(64, np.float32), np.full(64, 2.0, np.float32)]
    direct(Grad(tile.zeros((64,), f32).sync_on(stream)), stream)
    folded(Param("w", Grad(tile.zeros((64,), f32).sync_on(stream))), micros, stream)


if __name__ == "__main__":
    main()
