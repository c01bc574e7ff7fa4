"""Adjacent pairs of a list's items (`itertools.pairwise(stages)`, `zip(stages[:-1], stages[1:])`): each
iteration reads its first item and writes into a partition of its second, which it takes back from `sync_on`
so the next iteration's first item is still a live tensor."""

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
        out = tile.zeros((n,), f32)
        z, _ = halve(out.partition((64,)), src).sync_on(stream)
        print(z.unpartition().to_numpy(stream)[0], type(dst).__name__)


def zipped_stages(stream: sk.Stream, n: int) -> None:
    stages = [tile.ones((n,), f32), tile.zeros((n,), f32), tile.zeros((n,), f32)]
    for src, dst in zip(stages[:-1], stages[1:], strict=True):  # noqa: RUF007 (the form under test)
        out = tile.zeros((n,), f32)
        z, _ = halve(out.partition((64,)), src).sync_on(stream)
        print(z.unpartition().to_numpy(stream)[0], type(dst).__name__)


if __name__ == "__main__":
    pairwise_stages(sk.Device.cpu().new_stream(), 128, 3)
    zipped_stages(sk.Device.cpu().new_stream(), 128)
