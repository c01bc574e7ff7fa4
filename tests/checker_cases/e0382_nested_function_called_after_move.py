"""A nested function reads a captured value when it is called, not when it is defined: calling it after the
enclosing function moved that value is a use after move, at the nested function's read."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main(stream: sk.Stream, k: int) -> None:
    x = tile.ones((64,), f32)
    y = tile.ones((64,), f32)
    z = tile.zeros((64,), f32).partition((16,))
    op: sk.DeviceOp[Any] | None = add(z, x, y)

    def finish() -> None:
        nonlocal x, y, z, op
        if op is not None:
            z, x, y = op.sync_on(stream)  # expect: E0382
            op = None

    if op is not None:
        z, x, y = op.sync_on(stream)
    finish()
