"""A nested function binds a `nonlocal` op from a helper (`op = start(z, x, y)`) and runs it under `if op is not
None:` on the next line: nothing runs between the binding and the test, so the op the helper returned is what the
test sees, never None, and the nested function always hands the tensors back (`z, x, y = op.sync_on(stream)`).
The caller's later use of `z` reads the tensor the launch returned."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def start(z: Any, x: Any, y: Any) -> Any:
    return add(z, x, y)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((64,), f32).partition((16,))
    x, y = tile.ones((64,), f32), tile.ones((64,), f32)
    op: Any = None

    def step() -> None:
        nonlocal z, x, y, op
        op = start(z, x, y)
        if op is not None:
            z, x, y = op.sync_on(stream)

    step()
    print(z.unpartition().to_numpy(stream).sum())


if __name__ == "__main__":
    main()
