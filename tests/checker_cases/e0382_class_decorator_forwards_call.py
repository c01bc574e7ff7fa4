"""A class used as a decorator whose `__call__` hands the call on (`return self.fn(*args, **kwargs)`): calling the
decorated function runs its body, so the tile launch inside moves `x` and the second call uses a moved value: reported at that launch, inside the
function, where the runtime raises (the second call is a label)."""
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 3.0)


class timed:
    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.seconds = 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.fn(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start


@timed
def triple(z: sk.DeviceOp, x: sk.DeviceOp, stream: sk.Stream) -> Any:
    return scale(z, x).sync_on(stream)  # expect: E0382


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.from_numpy(np.arange(128, dtype=np.float32))
    z, x_back = triple(tile.zeros((128,), f32).partition((64,)), x, stream)
    z2, _ = triple(tile.zeros((128,), f32).partition((64,)), x, stream)
    print(z.unpartition().to_numpy(stream)[:2], z2.unpartition().to_numpy(stream)[:2], x_back)


main()
