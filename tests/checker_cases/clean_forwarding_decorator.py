"""The clean twin of `e0382_forwarding_decorator`: the values the decorated function hands back are used; a
function wrapped by a decorator that does not forward its arguments unchanged (here it calls the function on a copy
it makes) stays an ordinary call, and the caller's own values are still live."""

import functools
from collections.abc import Callable
from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def logged(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        print("->", fn.__name__)
        return fn(*args, **kwargs)

    return wrapper


def on_fresh_input(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(z: Any, x: Any, stream: sk.Stream) -> Any:
        return fn(z, tile.ones((64,), f32).sync_on(stream), stream)

    return wrapper


@logged
def double(z: Any, x: Any, stream: sk.Stream) -> Any:
    return scale(z, x).sync_on(stream)


@on_fresh_input
def double_fresh(z: Any, x: Any, stream: sk.Stream) -> Any:
    return scale(z, x).sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
    x = tile.arange(64, f32).sync_on(stream)
    z, x = double(z, x, stream)
    print(x.to_numpy(stream)[:4])
    z, fresh = double_fresh(z, x, stream)
    print(x.to_numpy(stream)[:4], fresh.to_numpy(stream)[:4])
