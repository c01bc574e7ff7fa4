"""The clean twin of `e0382_loop_over_display_of_new_objects`: a loop over a one-item display of a new object
runs its body once, so the tensors it moves are not used again, and the op it binds is run after the loop (no
W0003 for a second iteration that never happens)."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class Stage:
    def build(self, z: Any, x: Any, y: Any) -> Any:
        return add(z, x, y)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((N,), f32).partition((16,))
    x = tile.ones((N,), f32)
    y = tile.ones((N,), f32)
    op = None
    for stage in (Stage(),):
        op = stage.build(z, x, y)
    if op is not None:
        z, x, y = op.sync_on(stream)
        print(z.unpartition().to_numpy(stream)[:2], x.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
