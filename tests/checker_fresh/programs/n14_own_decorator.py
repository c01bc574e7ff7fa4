# fresh-expect: E0382 at line 41
"""A logging decorator of the user's own wraps a host step; the caller reads a tensor the step consumed."""
import functools

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        print("->", fn.__name__)
        return fn(*args, **kwargs)

    return wrapper


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


stream = sk.Device.cpu().new_stream()


@logged
def double(z, x):
    return scale(z, x).sync_on(stream)


z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
x = tile.arange(64, f32).sync_on(stream)
z2, x2 = double(z, x)
print(x.to_numpy(stream)[:4])  # BUG E0382 (use x2)
