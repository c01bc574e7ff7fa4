"""The twin of clean_launch_arguments_evaluated_before_moves: `first_of(y, x)` returns `y` itself, so the tile
launch takes `y` twice; it moves `y` for its second parameter and then finds it moved for its third (the runtime
raises `UseAfterMoveError` at the marked line)."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def first_of(u: Any, v: Any) -> Any:
    return u


def main() -> None:
    stream = sk.Device.default().new_stream()
    x = tile.ones((64,), f32).sync_on(stream)
    y = tile.ones((64,), f32).sync_on(stream)
    z = tile.zeros((64,), f32).partition((16,))
    z, y, x = add(z, y, first_of(y, x)).sync_on(stream)  # expect: E0382
    print(z, y, x)


if __name__ == "__main__":
    main()
