"""A module that reaches its functions without writing their names (`globals()["launches"]`) may call them with
anything: here it passes tensors for `x` and `y`, which the generator's loop launches again after the first launch
moved them, so its parameters stay the callers' values although the call written by name passes `.shared()` ops."""

from collections.abc import Iterator
from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def launches(outs: list[Any], x: Any, y: Any) -> Iterator[Any]:
    for z in outs:
        yield add(z, x, y)  # expect: E0382@col=22, E0382@col=25


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    outs = [tile.zeros((64,), f32).partition((32,)) for _ in range(2)]
    sk.zip(*globals()["launches"](outs, tile.ones((64,), f32), y=tile.ones((64,), f32))).sync_on(stream)
    outs = [tile.zeros((64,), f32).partition((32,)) for _ in range(2)]
    results = sk.zip(*launches(outs, tile.ones((64,), f32).shared(), y=tile.ones((64,), f32).shared())).sync_on(stream)
    assert len(results) == 2


if __name__ == "__main__":
    main()
