"""A function of the module that moves module-level values (declared `global`, or only read there), called by the
module's top-level code, moves the module's values at the call: reading them afterwards is a use after move."""

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


def finish() -> Any:
    return W.unpartition()


result = launch_scale()
print(Z.unpartition().to_numpy(stream)[:2])  # expect: E0382
W = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
done = finish()
print(W.unpartition().to_numpy(stream)[:2])  # expect: E0382


def main() -> None:
    """The case runs at import (module-level code)."""
