"""A same-module helper that builds a tile launch's op and returns it: the caller's call is that op, so dropping it
as a bare statement (or binding it and never running it) is W0003 at the line inside the helper that built it, the
line the runtime's `UnusedDeviceOpWarning` names, labelled with the caller's statement that drops it."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def doubled(z: Partition[f32], x: Tensor[f32]) -> Any:  # the op its launch builds
    return scale(z, x)  # expect: W0003


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((128,), f32).sync_on(stream)
    z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    doubled(z, x)
