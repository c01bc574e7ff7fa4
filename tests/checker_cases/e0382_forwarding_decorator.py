"""A function wrapped by the module's own decorator whose wrapper forwards `*args, **kwargs` to it (logging around
the call) keeps its call summary: calling it moves what its launch moves."""

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


@logged
def double(z: Any, x: Any, stream: sk.Stream) -> Any:
    return scale(z, x).sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
    x = tile.arange(64, f32).sync_on(stream)
    z2, x2 = double(z, x, stream)
    print(x.to_numpy(stream)[:4])  # expect: E0382
