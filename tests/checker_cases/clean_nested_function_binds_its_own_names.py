"""A nested function's own names: `with scratch() as z:` and `for x in ...` inside `warm_up` bind `warm_up`'s
own `z` and `x` (Python makes them local to it), so calling `warm_up()` moves nothing of the caller's, and the
caller's `z` and `x` are still there for the launch after it."""

import contextlib
from collections.abc import Iterator
from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@contextlib.contextmanager
def scratch() -> Iterator[Any]:
    yield tile.zeros((64,), f32).partition((16,))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((64,), f32)
    y = tile.ones((64,), f32)
    z = tile.zeros((64,), f32).partition((16,))

    def warm_up() -> None:
        with scratch() as z:
            z.unpartition().sync_on(stream)
        for x in [tile.ones((4,), f32)]:
            x.sync_on(stream)

    warm_up()
    z, x, y = add(z, x, y).sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
