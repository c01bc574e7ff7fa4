"""A nested function that declares a name `nonlocal` (or `global`) but never assigns it cannot change what the
name refers to, so an `if op is not None:` test of it in the enclosing function keeps its meaning: the op a
launch just built is not None, and the tensors `sync_on` hands back are the ones used after the test."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def run(stream: sk.Stream, z: Any, x: Any, y: Any) -> Any:
    op: sk.DeviceOp[Any] | None = add(z, x, y)

    def report() -> None:
        nonlocal op
        print("pending" if op is not None else "done")

    report()
    if op is not None:
        z, x, y = op.sync_on(stream)
    return add(z, x, y).sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((128,), f32).partition((64,))
    x = tile.ones((128,), f32)
    y = tile.ones((128,), f32)
    run(stream, z, x, y)
