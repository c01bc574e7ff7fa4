"""The twin of `clean_w0003_op_bound_to_nonlocal`: without the `nonlocal` declaration the nested function's
`pending` is its own local, so the op it binds is dropped unrun when the function returns."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def deferred(stream: sk.Stream) -> None:
    pending: Any = None

    def build() -> None:
        x = tile.ones((128,), f32)
        z = tile.zeros((128,), f32).partition((64,))
        pending = scale(z, x)  # expect: W0003

    build()
    if pending is not None:
        pending.sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    deferred(stream)
