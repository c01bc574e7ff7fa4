"""A value sent into a generator (`worker.send(x)`) is what the body's `yield` expression gives there
(`t = yield result`): a body that moves it (a tile launch of `t`) consumes the caller's `x` at the `send`, so
reading `x` afterwards is a use after move, also when the body moves it only after some other work."""

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
    result = None
    while True:
        t = yield result
        out, _ = double(tile.zeros(t.shape, f32).partition((64,)), t).sync_on(stream)
        result = out.unpartition()


def counted(stream: sk.Stream, limit: int) -> Generator[Any, Any, None]:
    seen = 0
    while seen < limit:
        received = yield seen
        seen += 1
        double(tile.zeros(received.shape, f32).partition((64,)), received).sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    worker = doubler(stream)
    next(worker)
    x = tile.ones((256,), f32).sync_on(stream)
    y = worker.send(x)
    print(y.to_numpy(stream)[:2], x.to_numpy(stream)[:2])  # expect: E0382


def main_counted() -> None:
    stream = sk.Device.cpu().new_stream()
    counter = counted(stream, 4)
    next(counter)
    w = tile.ones((256,), f32).sync_on(stream)
    counter.send(w)
    print(w.to_numpy(stream)[:2])  # expect: E0382


if __name__ == "__main__":
    main()
