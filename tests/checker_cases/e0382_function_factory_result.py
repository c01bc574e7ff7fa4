"""A name bound once to what a function factory of the module returns (`step = make_step(stream)`, the factory
returning a function defined in its body, or a lambda) calls that function: its call moves what the function's
launch moves, so the caller must use the values it hands back."""

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


def make_adder(stream: sk.Stream) -> Callable[..., Any]:
    return lambda z, x, y: add(z, x, y).sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    step = make_step(stream)
    z = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    y = tile.ones((64,), f32).sync_on(stream)
    z, x2, y = step(z, x, y)
    print(x.to_numpy(stream)[:2])  # expect: E0382
    adder = make_adder(stream)
    z, x3, y2 = adder(z, x2, y)
    print(y.to_numpy(stream)[:2])  # expect: E0382
