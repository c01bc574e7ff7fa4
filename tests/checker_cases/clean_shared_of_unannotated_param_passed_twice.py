"""`.shared()` of an unannotated parameter (`Any`: not known to be a safekernels value) still gives a shared op: one
launch may read it twice, and later launches may read it again (the runtime's `SharedDeviceOp`)."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def double(t: Any, stream: sk.Stream) -> Any:
    shared = t.shared()
    z, *_ = add(tile.zeros((64,), f32).partition((32,)), shared, shared).sync_on(stream)
    w, *_ = add(tile.zeros((64,), f32).partition((32,)), shared, shared).sync_on(stream)
    return z, w


def main() -> None:
    double(tile.ones((64,), f32), sk.Device.cpu().new_stream())
