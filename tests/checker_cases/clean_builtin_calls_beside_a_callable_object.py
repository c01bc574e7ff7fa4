"""Python's builtins (`sorted`, `zip`, `print`, `list`) called in a file whose class defines `__call__` are the
builtins, not objects of that class: `sorted(self.names)` moves nothing, so reading `self.names` again is fine,
and `print(...)` returns no op to drop."""

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


class Registry:
    def __init__(self, names: dict[str, int]) -> None:
        self.names = names
        self.order = [n for n, _ in zip(sorted(self.names), self.names.values())]
        print(list(self.names))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    Registry({"a": 1, "b": 2})
    x = tile.ones((64,), f32)
    y = tile.ones((64,), f32)
    z = tile.zeros((64,), f32).partition((16,))
    print(sorted([1, 2]))
    z, x, y = Runner()(z, x, y).sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
