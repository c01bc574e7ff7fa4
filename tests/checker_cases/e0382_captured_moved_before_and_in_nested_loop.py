"""One use, two analyses: `inner` reads `z` that `main` moved before defining it, and `inner`'s own loop moves `z`
again on each iteration.  Both analyses report the use on one line; it is reported once, with both move sites
(mypy shows one message per line, with the notes of both)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main(stream: sk.Stream, k: int) -> None:
    x = tile.ones((64,), f32)
    y = tile.ones((64,), f32)
    z = tile.zeros((64,), f32).partition((16,))
    op = add(z, x, y)

    def inner() -> None:
        nonlocal op
        for _ in range(k):
            op = add(z, x, y)  # expect: E0382, W0003

    inner()
    op.sync_on(stream)
