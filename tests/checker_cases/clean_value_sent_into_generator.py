"""A value sent into a generator (`worker.send(x)`) is what the body's `yield` expression gives there: a body
that hands the consumed value back (`y, x = worker.send(x)`, the caller rebinding `x` each time), a body that only
reads what it receives, and a plain value sent in (a scale factor) leave the caller's names usable."""

from collections.abc import Generator
from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def doubler(stream: sk.Stream) -> Generator[Any, Any, None]:
    reply = None
    while True:
        t = yield reply
        out, t = double(tile.zeros(t.shape, f32).partition((64,)), t).sync_on(stream)
        reply = (out.unpartition(), t)


def shapes() -> Generator[Any, Any, None]:
    shape = None
    while True:
        seen = yield shape
        shape = seen.shape


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    worker = doubler(stream)
    next(worker)
    x = tile.ones((256,), f32).sync_on(stream)
    for _ in range(2):
        y, x = worker.send(x)
        print(y.to_numpy(stream)[:2], x.to_numpy(stream)[:2])
    worker.close()
    watcher = shapes()
    next(watcher)
    print(watcher.send(x), x.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
