"""An item a dict keeps under a literal key that a tile launch moved and `sync_on` handed back (bound under the
same key again) is a live value: reading it in an expression afterwards is fine."""

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
    out, layers["mask"], _y = layers["edge"].sync_on(stream)
    print(layers["mask"].to_numpy(stream)[:2], out)


if __name__ == "__main__":
    main()
