# fresh-expect: clean
"""A retry loop around a tile job that rebuilds its inputs from host data on every attempt."""
import random

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class Flaky(RuntimeError):
    pass


def attempt_add(stream: sk.Stream, a: np.ndarray, b: np.ndarray, fail: bool) -> np.ndarray:
    x = tile.from_numpy(a)
    y = tile.from_numpy(b)
    z = tile.zeros((a.shape[0],), f32).partition((128,))
    z, x, y = add(z, x, y).sync_on(stream)
    if fail:
        raise Flaky("checksum mismatch")
    return z.unpartition().to_numpy(stream)


def with_retries(stream: sk.Stream, a: np.ndarray, b: np.ndarray, tries: int = 4) -> np.ndarray:
    rng = random.Random(5)
    last: Exception | None = None
    for i in range(tries):
        try:
            return attempt_add(stream, a, b, fail=i == 0 or rng.random() < 0.2)
        except Flaky as err:
            last = err
            continue
        finally:
            pass
    raise RuntimeError("gave up") from last


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    a = np.ones(300, dtype=np.float32)
    print(with_retries(stream, a, a * 2)[:3])


if __name__ == "__main__":
    main()
