"""A function or method memoised by `@functools.lru_cache` hands back the object it kept for equal arguments at
every later call, also in a later run of the code that called it: `Loader.epoch` moves the tensor `self.batch(i)`
gives into a tile launch, so the second `epoch()` (main calls it in a loop) gets the moved tensor of `batch(0)`;
`refresh`, called for each of two items of a comprehension, moves the tensor `bias(8)` keeps.  Each call's result
is bound to a name first, which is no use of it: the runtime raises where the name is passed to the launch."""

import functools

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

DEV = sk.Device.cpu()
STREAM = DEV.new_stream()


@tile.kernel
def scale(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 2.0)


@functools.lru_cache(maxsize=4)
def bias(n: int) -> tile.Tensor:
    return tile.ones((n,), f32).sync_on(STREAM)


def refresh() -> float:
    b = bias(8)
    out = tile.zeros((8,), f32).partition((8,))
    (out, _) = scale(out, b).sync_on(STREAM)  # expect: E0382
    return float(out.unpartition().to_numpy(STREAM).sum())


class Loader:
    def __init__(self, data: np.ndarray) -> None:
        self.data = data

    @functools.lru_cache(maxsize=4)
    def batch(self, i: int) -> tile.Tensor:
        return tile.from_numpy(self.data[i * 8:(i + 1) * 8]).sync_on(STREAM)

    def epoch(self) -> list[float]:
        sums = []
        for i in range(2):
            raw = self.batch(i)
            out = tile.zeros((8,), f32).partition((8,))
            (out, _) = scale(out, raw).sync_on(STREAM)  # expect: E0382
            sums.append(float(out.unpartition().to_numpy(STREAM).sum()))
        return sums


def main() -> None:
    loader = Loader(np.arange(16, dtype=np.float32))
    for _ in range(2):
        print(loader.epoch())


def twice() -> None:
    print([refresh() for _ in range(2)])


if __name__ == "__main__":
    try:
        main()
    finally:
        twice()
