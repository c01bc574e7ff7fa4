# fresh-expect: E0382 at line 36
# fresh-note: found since: a class used as a decorator whose __call__ returns self.fn(*args, **kwargs) forwards the call
"""A profiler: a class-based decorator times each call of a tile job and forwards its arguments."""
import time
from typing import Any, Callable

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 3.0)


class profiled:
    timings: dict[str, list[float]] = {}

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.fn(*args, **kwargs)
        finally:
            profiled.timings.setdefault(self.fn.__name__, []).append(time.perf_counter() - start)


@profiled
def triple(z: sk.DeviceOp, x: sk.DeviceOp, stream: sk.Stream) -> Any:
    return scale(z, x).sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    n = 300
    x = tile.from_numpy(np.arange(n, dtype=np.float32))
    z = tile.zeros((n,), f32).partition((64,))
    z_done, _x_back = triple(z, x, stream)
    print(z_done.unpartition().to_numpy(stream)[:3])
    z2 = tile.zeros((n,), f32).partition((64,))
    z2_done, _ = triple(z2, x, stream)  # x moved into the first call; its value came back as _x_back
    print(z2_done.unpartition().to_numpy(stream)[:3], profiled.timings)


if __name__ == "__main__":
    main()
