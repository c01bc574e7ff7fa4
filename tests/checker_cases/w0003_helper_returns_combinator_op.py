"""A helper or method whose every `return` gives an op built by a combinator (`sk.zip(...)`, `op.then(f)`,
`op.first()`) or a name holding one returns a lazy op too: dropping the call's result (a bare statement, or a name
rebound before it runs) never runs it: W0003 at the line inside the helper that built it (the line the runtime's
`UnusedDeviceOpWarning` names), labelled with the caller's statement or binding that drops it."""

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
    return sk.zip(first.then(lambda v: v[0].unpartition()), second.first().unpartition())  # expect: W0003


class Monitor:
    def job(self, n: int) -> Any:
        ones = tile.ones((n,), f32)
        op = add(tile.zeros((n,), f32).partition((64,)), ones, tile.ones((n,), f32)).first()  # expect: W0003
        return op


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    both(N)
    monitor = Monitor()
    for n in (N, 2 * N):
        job = monitor.job(n)
        if n > N:
            continue
        print(job.sync_on(stream).unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
