"""Adjacent pairs of a list's items (`itertools.pairwise(stages)`, `zip(stages[:-1], stages[1:])`): one
iteration's second item is the next iteration's first, so partitioning (moving) it leaves the next iteration
reading a moved tensor."""

import itertools

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def halve(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 0.5)


def pairwise_stages(stream: sk.Stream, n: int, depth: int) -> None:
    stages = [tile.ones((n,), f32)] + [tile.zeros((n,), f32) for _ in range(depth)]
    for src, dst in itertools.pairwise(stages):
        z, _ = halve(dst.partition((64,)), src).sync_on(stream)  # expect: E0382
        print(z.unpartition().to_numpy(stream)[0])


def zipped_stages(stream: sk.Stream, n: int) -> None:
    stages = [tile.ones((n,), f32), tile.zeros((n,), f32), tile.zeros((n,), f32)]
    for src, dst in zip(stages[:-1], stages[1:], strict=True):  # noqa: RUF007 (the form under test)
        z, _ = halve(dst.partition((64,)), src).sync_on(stream)  # expect: E0382
        print(z.unpartition().to_numpy(stream)[0])


if __name__ == "__main__":
    pairwise_stages(sk.Device.cpu().new_stream(), 128, 3)
