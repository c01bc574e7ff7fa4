"""The look-alike of `e0382_match_guard_moves`: the guard only reads; the move is in a case body, which ends the
match (later cases never run after it)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)


def main(v: int) -> None:
    stream = sk.Device(0).new_stream()
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    match v:
        case 1 if x is not y:
            print(add(z, x, y).sync_on(stream))
        case 2:
            print(x)
        case _:
            pass
