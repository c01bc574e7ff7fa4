"""A parameter annotated with a dataclass of the module holds device values in the fields the class declares with a
device type, also through a field of another such class (`param.grad.values` of `grad: Grad`, `values:
tile.Tensor`): moving that field (a partition, a helper that partitions it, `functools.reduce` of a
`functools.partial` of such a helper) and reading it again is E0382, where the runtime raises."""

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
    print(part.unpartition().to_numpy(stream)[:1], grad.values.to_numpy(stream)[:1])  # expect: E0382


def folded(param: Param, micros: list[np.ndarray], stream: sk.Stream) -> None:
    summed = functools.reduce(functools.partial(fold, stream), micros, param.grad.values)
    print(summed.to_numpy(stream)[:1], param.grad.values.to_numpy(stream)[:1])  # expect: E0382


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    micros = [np.ones(64, np.float32), np.full(64, 2.0, np.float32)]
    for run in (
        lambda: direct(Grad(tile.zeros((64,), f32).sync_on(stream)), stream),
        lambda: folded(Param("w", Grad(tile.zeros((64,), f32).sync_on(stream))), micros, stream),
    ):
        try:
            run()
        except sk.UseAfterMoveError as err:
            print("UseAfterMoveError:", err)


if __name__ == "__main__":
    main()
