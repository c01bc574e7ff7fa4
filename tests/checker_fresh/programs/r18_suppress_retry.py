# fresh-expect: E0382 at line 26
"""A flaky submission is retried with `contextlib.suppress` inside a for/else loop; the failed attempt already
moved the tensors into its launch, so the retry passes moved values."""
import contextlib
import itertools

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


class TransientDeviceError(RuntimeError):
    pass


_ATTEMPTS = itertools.count()


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def submit(stream, z, x):
    op = double(z, x)
    if next(_ATTEMPTS) == 0:
        raise TransientDeviceError("queue full")
    return op.sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((128,), f32).partition((64,))
    x = tile.ones((128,), f32)
    for _attempt in range(3):
        with contextlib.suppress(TransientDeviceError):
            z, x = submit(stream, z, x)  # BUG
            break
    else:
        raise RuntimeError("gave up")
    print(z.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
