# fresh-expect: clean
"""A coroutine-style generator receives tensors with send() and hands back both the result and the input it consumed."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def doubler(stream):
    reply = None
    while True:
        t = yield reply
        out, t = double(tile.zeros(t.shape, f32).partition((64,)), t).sync_on(stream)
        reply = (out.unpartition(), t)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    worker = doubler(stream)
    next(worker)
    x = tile.ones((256,), f32).sync_on(stream)
    for _ in range(2):
        y, x = worker.send(x)
        print(y.to_numpy(stream)[:2], x.to_numpy(stream)[:2])
    worker.close()


main()
