"""`functools.reduce(add_frame, frames, total)` runs `acc = add_frame(acc, frame)` for each frame, starting from
`total`: the helper launches on its accumulator (a tile launch takes ownership of it) and returns the new value
`sync_on` hands back, so the first step moves `total` and reading `total` afterwards is a use of a moved value.
The same holds where the helper is nested in the function that folds, and for a display of known items."""

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
    print(total.unpartition().to_numpy(stream)[:2])  # expect: E0382


def nested(stream: sk.Stream, acc: tile.Partition, frames: list[np.ndarray]) -> tile.Partition:
    def step(part: tile.Partition, frame: np.ndarray) -> tile.Partition:
        part, _frame = accumulate(part, tile.from_numpy(frame)).sync_on(stream)
        return part

    return functools.reduce(step, frames, acc)


def displayed(stream: sk.Stream, a: np.ndarray, b: np.ndarray) -> None:
    total = tile.zeros((64,), f32).partition((TILE,)).sync_on(stream)
    result = reduce(add_frame, (a, b), total)
    print(result.unpartition().to_numpy(stream)[:2], total.unpartition().to_numpy(stream)[:2])  # expect: E0382


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    frames = [np.full(64, float(k), np.float32) for k in range(3)]
    folded(stream, frames)
    total = tile.zeros((64,), f32).partition((TILE,)).sync_on(stream)
    nested(stream, total, frames)
    print(total.unpartition().to_numpy(stream)[:2])  # expect: E0382
    displayed(stream, frames[0], frames[1])


main()
