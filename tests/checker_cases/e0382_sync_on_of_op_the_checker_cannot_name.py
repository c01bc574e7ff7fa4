"""`op.sync_on(stream)` consumes `op` whatever the checker knows of it (`sync_on` is no other library's method):
an op a helper returns through an `Any` annotation, or an item of a list of ops built by a comprehension, is moved
by its first `sync_on`, so a second one is a use after move, in both front ends (mypy types such an `op` as a
DeviceOp; the CLI cannot name it, and needs not)."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def scaled(x: Tensor[f32]) -> Any:  # the op its launch builds
    return scale(tile.zeros((128,), f32).partition((64,)), x)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((128,), f32).shared()
    op = scaled(x)
    op.sync_on(stream)
    op.sync_on(stream)  # expect: E0382
    ops = [scaled(x) for _ in range(2)]
    for pending in ops:
        pending.sync_on(stream)
    ops[1].sync_on(stream)  # expect: E0382
