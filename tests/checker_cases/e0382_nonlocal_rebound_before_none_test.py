"""The twin of `clean_nonlocal_declared_but_only_read`: the nested function assigns the `nonlocal` name, so after
its call the op may be None, the `if op is not None:` arm may not run, and the tensors moved into the launch stay
moved: E0382 at the next launch, as the runtime's `UseAfterMoveError` (and the op dropped unrun on that path is
W0003, as the runtime's `UnusedDeviceOpWarning`)."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def run(stream: sk.Stream, z: Any, x: Any, y: Any) -> Any:
    op: sk.DeviceOp[Any] | None = add(z, x, y)  # expect: W0003

    def cancel() -> None:
        nonlocal op
        op = None

    cancel()
    if op is not None:
        z, x, y = op.sync_on(stream)
    return add(z, x, y).sync_on(stream)  # expect: E0382


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((128,), f32).partition((64,))
    x = tile.ones((128,), f32)
    y = tile.ones((128,), f32)
    run(stream, z, x, y)
