"""An op built inside a nested function and bound to a `nonlocal` (or `global`) name is not dropped when that
function returns: the enclosing scope still holds it and runs it later."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


LATEST: Any = None


def remember(stream: sk.Stream) -> None:
    global LATEST
    x = tile.ones((128,), f32)
    z = tile.zeros((128,), f32).partition((64,))
    LATEST = scale(z, x)


def deferred(stream: sk.Stream) -> None:
    pending: Any = None

    def build() -> None:
        nonlocal pending
        x = tile.ones((128,), f32)
        z = tile.zeros((128,), f32).partition((64,))
        pending = scale(z, x)

    build()
    pending.sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    deferred(stream)
    remember(stream)
    LATEST.sync_on(stream)
