"""A nested function that moves the caller's value: `warm_up` binds its own `w`, but `z.unpartition()` there
is the caller's `z` (`warm_up` never binds `z`), so after `warm_up()` the launch reads a moved `z` (E0382)."""

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
        with scratch() as w:
            w.unpartition().sync_on(stream)
        z.unpartition()

    warm_up()
    z, x, y = add(z, x, y).sync_on(stream)  # expect: E0382
    print(z.unpartition().to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
