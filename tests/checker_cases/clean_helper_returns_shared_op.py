"""A helper whose every `return` gives a `.shared()` op: what it gives is read by each launch it is passed to,
never moved, as a `.shared()` op written at the call would be, so two launches (and every iteration) may read
it."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def fill(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 3.0)


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def rates() -> Any:
    op = fill(tile.zeros((N,), f32).partition((16,)), tile.ones((N,), f32))
    return op.first().unpartition().shared()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    k = rates()
    x = tile.ones((N,), f32)
    for _ in range(2):
        z, x, _k = add(tile.zeros((N,), f32).partition((16,)), x, k).sync_on(stream)
        print(z.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
