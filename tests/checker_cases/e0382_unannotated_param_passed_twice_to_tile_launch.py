"""Twin of clean_shared_of_unannotated_param_passed_twice: without `.shared()`, the first tile argument moves
the parameter and the second uses it after the move (the runtime's UseAfterMoveError)."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def double(t: Any, stream: sk.Stream) -> Any:
    z, *_ = add(tile.zeros((64,), f32).partition((32,)), t, t).sync_on(stream)  # expect: E0382
    return z


def main() -> None:
    double(tile.ones((64,), f32), sk.Device.cpu().new_stream())
