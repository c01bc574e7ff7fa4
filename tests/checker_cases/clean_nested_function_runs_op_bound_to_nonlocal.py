"""The clean twin of `e0382_nested_function_runs_op_bound_to_nonlocal`: the nested function runs the op it
binds to a `nonlocal` name, then binds the name to None, so the caller's test finds nothing to run."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def none_yet() -> Any:
    return None


def make(z: Any, x: Any, y: Any) -> Any:
    return add(z, x, y)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((64,), f32).partition((16,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    y = tile.ones((64,), f32).sync_on(stream)
    op: sk.DeviceOp[Any] | None = none_yet()

    def step() -> None:
        nonlocal x, y, z, op
        op = make(z, x, y)
        if op is not None:
            z, x, y = op.sync_on(stream)
        op = none_yet()

    step()
    if op is not None:
        z, x, y = op.sync_on(stream)
    print("ran")


if __name__ == "__main__":
    main()
