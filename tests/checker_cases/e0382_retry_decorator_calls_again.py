"""A decorator of the module whose wrapper calls the function it wraps in a loop (`@retry(3)`, a factory returning
the decorator, or `@retrying` itself) may run it again with the same arguments: what the first run moved is used
again, at the call."""

import functools
from collections.abc import Callable
from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def retry(times: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for attempt in range(times):
                try:
                    return fn(*args, **kwargs)
                except RuntimeError:
                    print("retrying after attempt", attempt)
            raise RuntimeError("gave up")

        return wrapper

    return deco


def retrying(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        while True:
            try:
                return fn(*args, **kwargs)
            except RuntimeError:
                print("retrying")

    return wrapper


@retry(3)
def step(z: Partition[f32], x: Tensor[f32], y: Tensor[f32], stream: sk.Stream) -> Partition[f32]:
    z, x, y = add(z, x, y).sync_on(stream)
    return z


@retrying
def step_again(z: Partition[f32], x: Tensor[f32], y: Tensor[f32], stream: sk.Stream) -> Partition[f32]:
    z, x, y = add(z, x, y).sync_on(stream)
    return z


def factory(stream: sk.Stream) -> None:
    z = tile.zeros((256,), f32).partition((64,))
    x = tile.ones((256,), f32)
    print(step(z, x, tile.ones((256,), f32), stream))  # expect: E0382


def plain(stream: sk.Stream) -> None:
    z = tile.zeros((256,), f32).partition((64,))
    y = tile.ones((256,), f32)
    print(step_again(z, tile.ones((256,), f32), y, stream))  # expect: E0382
