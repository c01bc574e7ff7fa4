"""The clean twin of `e0382_global_moved_in_function`: the module uses what the function hands back, and a
function that rebinds the global it moves (`global Z` then `Z, X = ...`) leaves the module's name referring to the
new value."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


stream = sk.Device.cpu().new_stream()
X = tile.ones((64,), f32).sync_on(stream)
Z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)


def launch_scale() -> Any:
    global Z, X
    return scale(Z, X).sync_on(stream)


def scale_in_place() -> None:
    global Z, X
    Z, X = scale(Z, X).sync_on(stream)


z2, x2 = launch_scale()
Z, X = z2, x2
scale_in_place()
print(Z.unpartition().to_numpy(stream)[:2], X.to_numpy(stream)[:2])


def main() -> None:
    """The case runs at import (module-level code)."""
