"""Every moved value is reported on its own: the second launch uses `z`, moved by the first, and passes `y` twice
(the CLI used to report one launch's moves once together, hiding `z`)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)


def main() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op2 = add(z, x, x)  # expect: E0382@col=21
    op3 = add(z, y, y)  # expect: E0382@col=15, E0382@col=21
    print(op2, op3)
