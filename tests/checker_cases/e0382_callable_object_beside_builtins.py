"""A callable object of the module's class (`run(z, x, y)`, `run` a `Runner`) runs its `__call__`, which moves
its arguments into a tile launch, so reading `z` after it is E0382; calls of Python's builtins in the same file
(`sorted`, `print`) stay builtins."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class Runner:
    def __call__(self, z: Any, x: Any, y: Any) -> Any:
        return add(z, x, y)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((64,), f32)
    y = tile.ones((64,), f32)
    z = tile.zeros((64,), f32).partition((16,))
    print(sorted([1, 2]))
    run = Runner()
    op = run(z, x, y)
    z.unpartition()  # expect: E0382
    op.sync_on(stream)


if __name__ == "__main__":
    main()
