"""Twin of `clean_nonlocal_op_tested_right_after_its_binding`: between `op = start(z, x, y)` and `if op is not
None:` the nested function calls `cancel()`, another nested function that sets the `nonlocal` op to None, so the
test skips `sync_on` and the tensors the launch took are never handed back: the caller's `z` is moved (E0382, the
runtime's UseAfterMoveError)."""

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

    def cancel() -> None:
        nonlocal op
        op = None

    def step() -> None:
        nonlocal z, x, y, op
        op = start(z, x, y)
        cancel()
        if op is not None:
            z, x, y = op.sync_on(stream)

    step()
    print(z.unpartition().to_numpy(stream).sum())  # expect: E0382


if __name__ == "__main__":
    main()
