"""The clean twin of `w0003_helper_returned_op_dropped`: the op the helper returns is run by the caller, or handed
on by another helper's `return`."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def doubled(z: Partition[f32], x: Tensor[f32]) -> Any:  # the op its launch builds
    return scale(z, x)


def quadrupled(z: Partition[f32], x: Tensor[f32]) -> Any:  # the op its launch builds
    return doubled(z, x)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((128,), f32).sync_on(stream)
    z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    z, x = doubled(z, x).sync_on(stream)
    z, x = quadrupled(z, x).sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:2])
