# fresh-expect: E0382 at line 23
"""A retry-with-backoff wrapper around a tile job; a simulated timeout makes the first attempt fail."""
import time

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class TransientError(RuntimeError):
    pass


def submit(z: sk.DeviceOp, x: sk.DeviceOp, y: sk.DeviceOp, attempt: int) -> sk.DeviceOp:
    op = add(z, x, y)
    if attempt == 0:
        op.sync_on(sk.Device.cpu().new_stream())
        raise TransientError("device busy")
    return op


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    n = 500
    x = tile.from_numpy(np.ones(n, dtype=np.float32))
    y = tile.from_numpy(np.arange(n, dtype=np.float32))
    z = tile.zeros((n,), f32).partition((128,))
    delay = 0.001
    result = None
    for attempt in range(3):
        try:
            result = submit(z, x, y, attempt).sync_on(stream)
            break
        except TransientError:
            time.sleep(delay)
            delay *= 2
    assert result is not None
    print(result[0].unpartition().to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
