"""`functools.reduce(sk.zip, ops)` calls `sk.zip` on the items of `ops` before it returns, and `sk.zip` takes
ownership of what it is given: every item of a comprehension-built list (or of a display) is moved by the call, so
syncing one of them afterwards uses a moved value.  `list(map(k, parts))` of a tile kernel moves each item too."""

import functools
from functools import reduce

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@tile.kernel
def fill(z: Partition[f32]) -> None:
    z.store(tile.zeros((32,), f32))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    ops = [scale(tile.zeros((64,), f32).partition((32,)), tile.full((64,), float(k), f32)) for k in range(3)]
    combined = functools.reduce(sk.zip, ops)
    print(combined.sync_on(stream))
    ops[0].sync_on(stream)  # expect: E0382
    p = tile.ones((64,), f32)
    q = tile.zeros((64,), f32)
    both = reduce(sk.zip, [p, q])
    print(both.sync_on(stream))
    print(q.sync_on(stream))  # expect: E0382
    parts = [tile.zeros((64,), f32).partition((32,)), tile.zeros((64,), f32).partition((32,))]
    launched = list(map(fill, parts))
    print(len(launched))
    print(parts[1].sync_on(stream))  # expect: E0382
