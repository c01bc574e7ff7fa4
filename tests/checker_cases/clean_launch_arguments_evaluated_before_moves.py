"""Python evaluates every argument of a launch before the launch takes any of them: `first_of(x, y)` reads `y` and
returns `x`, and only then does the tile launch move `z`, `y` and `x`, so nothing is used after a move, also when
the argument before it is a conditional expression (the checker lowers what an argument only evaluates, a call, a
condition, before the launch's moves and borrows)."""

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


def norm_of(t: Any) -> float:
    return float(abs(t.to_numpy(sk.Device.cpu().new_stream())).sum())


def main(flag: bool) -> None:
    stream = sk.Device.default().new_stream()
    x = tile.ones((64,), f32).sync_on(stream)
    y = tile.ones((64,), f32).sync_on(stream)
    w = tile.ones((64,), f32).sync_on(stream)
    z = tile.zeros((64,), f32).partition((16,))
    z, y, x = add(z, y, first_of(x, y)).sync_on(stream)
    z, picked, x = add(z, (y if flag else w), first_of(x, y)).sync_on(stream)
    print(norm_of(z.unpartition()), norm_of(picked), norm_of(x))


if __name__ == "__main__":
    main(True)
