"""The look-alike of `e0382_reduce_helper_moves_accumulator`: the fold's result is used, not the initial value it
consumed (`total = reduce(...)` rebinds the name to what the last step returned)."""

import functools
from functools import reduce

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 32


@tile.kernel
def accumulate(acc: Partition[f32], frame: Tensor[f32]) -> None:
    acc.store(acc.load() + tile.load_like(frame, acc))


def add_frame(part: tile.Partition, frame: np.ndarray) -> tile.Partition:
    stream = sk.Device.cpu().new_stream()
    part, _frame = accumulate(part, tile.from_numpy(frame)).sync_on(stream)
    return part


def folded(stream: sk.Stream, frames: list[np.ndarray]) -> None:
    total = tile.zeros((64,), f32).partition((TILE,)).sync_on(stream)
    result = reduce(add_frame, frames, total)
    print(result.unpartition().to_numpy(stream)[:2])
    total = tile.zeros((64,), f32).partition((TILE,)).sync_on(stream)
    print(total.unpartition().to_numpy(stream)[:2])


def nested(stream: sk.Stream, acc: tile.Partition, frames: list[np.ndarray]) -> tile.Partition:
    def step(part: tile.Partition, frame: np.ndarray) -> tile.Partition:
        part, _frame = accumulate(part, tile.from_numpy(frame)).sync_on(stream)
        return part

    return functools.reduce(step, frames, acc)


def displayed(stream: sk.Stream, a: np.ndarray, b: np.ndarray) -> None:
    total = tile.zeros((64,), f32).partition((TILE,)).sync_on(stream)
    total = reduce(add_frame, (a, b), total)
    print(total.unpartition().to_numpy(stream)[:2])


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    frames = [np.full(64, float(k), np.float32) for k in range(3)]
    folded(stream, frames)
    total = tile.zeros((64,), f32).partition((TILE,)).sync_on(stream)
    total = nested(stream, total, frames)
    print(total.unpartition().to_numpy(stream)[:2])
    displayed(stream, frames[0], frames[1])


main()
