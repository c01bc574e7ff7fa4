"""The twin of `w0003_helper_returns_combinator_op`: the op a helper returns, built by a combinator, runs
(`sync_on`), also on the path that skips the rest of the loop."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 128


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def both(n: int) -> Any:
    first = add(tile.zeros((n,), f32).partition((64,)), tile.ones((n,), f32), tile.ones((n,), f32))
    second = add(tile.zeros((n,), f32).partition((64,)), tile.ones((n,), f32), tile.ones((n,), f32))
    return sk.zip(first.then(lambda v: v[0].unpartition()), second.first().unpartition())


class Monitor:
    def job(self, n: int) -> Any:
        op = add(tile.zeros((n,), f32).partition((64,)), tile.ones((n,), f32), tile.ones((n,), f32)).first()
        return op


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    a, b = both(N).sync_on(stream)
    print(a.to_numpy(stream)[:1], b.to_numpy(stream)[:1])
    monitor = Monitor()
    for n in (N, 2 * N):
        job = monitor.job(n)
        out = job.sync_on(stream).unpartition()
        if n > N:
            continue
        print(out.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
