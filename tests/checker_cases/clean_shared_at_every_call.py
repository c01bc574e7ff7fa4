"""A plain function of the module whose every call passes a `.shared()` op for a parameter (written in the call)
starts its own check with that parameter a shared op: a launch reads it without moving it, so a generator that
launches it in a loop, once per output, is clean (the error twin passes a tensor in one call)."""

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
        yield add(z, x, y)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    outs = [tile.zeros((64,), f32).partition((32,)) for _ in range(2)]
    results = sk.zip(*launches(outs, tile.ones((64,), f32).shared(), y=tile.ones((64,), f32).shared())).sync_on(stream)
    assert len(results) == 2


if __name__ == "__main__":
    main()
