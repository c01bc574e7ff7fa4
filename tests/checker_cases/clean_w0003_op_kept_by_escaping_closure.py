"""An op held by a name that a nested function declares `nonlocal` is not dropped when the enclosing function
returns that nested function: the closure keeps the name's cell alive and runs the op when it is called."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def make_finisher(stream: sk.Stream) -> Any:
    pending: Any = add(tile.zeros((128,), f32).partition((64,)), tile.ones((128,), f32), tile.ones((128,), f32))

    def finish() -> Any:
        nonlocal pending
        done, pending = pending, None
        return done.sync_on(stream)

    return finish


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    finish = make_finisher(stream)
    finish()
