"""A loop over a list or tuple display runs its body exactly once per displayed item, even when the items are new
objects (`for stage in [Stage(), Stage()]:`) rather than names: with two items the second iteration passes tensors
the first one moved into a lazy tile launch (E0382 at that launch inside `build`, where the runtime's
`UseAfterMoveError` is raised); with one item
(`clean_loop_over_display_of_new_objects`) nothing is used after its move, and the op bound in the body is run
after the loop."""

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
        return add(z, x, y)  # expect: E0382@col=20, E0382@col=23, E0382@col=26


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((N,), f32).partition((16,))
    x = tile.ones((N,), f32)
    y = tile.ones((N,), f32)
    for stage in [Stage(), Stage()]:
        op = stage.build(z, x, y)
        out, _x, _y = op.sync_on(stream)
        print(out.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
