"""An item a dict keeps under a literal key (`layers["mask"]`) that a tile launch moved is a moved value: reading
it in an expression afterwards (`layers["mask"].to_numpy(s)`) is a use after move, as the runtime finds, also when
the dict holds ops stored under other keys."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    layers: dict[str, Any] = {}
    layers["mask"] = tile.ones((N,), f32).sync_on(stream)
    layers["edge"] = add(tile.zeros((N,), f32).partition((16,)), layers["mask"], tile.ones((N,), f32))
    print(layers["mask"].to_numpy(stream)[:2])  # expect: E0382
    layers["edge"].sync_on(stream)


if __name__ == "__main__":
    main()
