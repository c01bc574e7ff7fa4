# fresh-expect: E0382 at line 31
"""A coroutine-style generator receives tensors with send() and doubles them; the caller reads the sent tensor
afterwards."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def doubler(stream):
    """Prime with next(); each send(tensor) doubles it and yields the result."""
    result = None
    while True:
        t = yield result
        out, _ = double(tile.zeros(t.shape, f32).partition((64,)), t).sync_on(stream)
        result = out.unpartition()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    worker = doubler(stream)
    next(worker)
    x = tile.ones((256,), f32).sync_on(stream)
    y = worker.send(x)
    print(y.to_numpy(stream)[:2], x.to_numpy(stream)[:2])  # BUG


main()
