"""The clean twin of `e0382_function_factory_result`: the values a factory-made step hands back are the ones used
after it; a factory that may return one of two functions is an ordinary call (which one runs is not known)."""

from collections.abc import Callable
from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def make_step(stream: sk.Stream) -> Callable[..., Any]:
    def step(z: Any, x: Any, y: Any) -> Any:
        return add(z, x, y).sync_on(stream)

    return step


def make_either(stream: sk.Stream, fused: bool) -> Callable[..., Any]:
    def run(z: Any, x: Any, y: Any) -> Any:
        return add(z, x, y).sync_on(stream)

    def skip(z: Any, x: Any, y: Any) -> Any:
        return z, x, y

    if fused:
        return run
    return skip


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    step = make_step(stream)
    z = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    y = tile.ones((64,), f32).sync_on(stream)
    z, x, y = step(z, x, y)
    print(x.to_numpy(stream)[:2])
    either = make_either(stream, False)
    z2, x2, y2 = either(z, x, y)
    print(x.to_numpy(stream)[:2], x2.to_numpy(stream)[:2])
