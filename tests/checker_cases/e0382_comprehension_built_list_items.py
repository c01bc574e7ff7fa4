"""A list built by a comprehension over an iterable of known length (`range(3)`, a display) has items the checker
names: launching them one by one in a loop (or a comprehension over the list) moves each, `sk.zip(*ops)` consumes
each op, so a later `parts[0]` / `ops[0]` is a use after move."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((128,), f32).shared()
    y = tile.ones((128,), f32).shared()
    parts = [tile.zeros((128,), f32).partition((64,)) for _ in range(3)]
    ops = []
    for part in parts:
        ops.append(scale(part, x))
    for op in ops:
        op.sync_on(stream)
    print(parts[2].unpartition())  # expect: E0382
    more = [t.partition((64,)) for t in (tile.zeros((128,), f32), tile.ones((128,), f32))]
    done = [scale(p, x).sync_on(stream) for p in more]
    print(len(done), more[1].unpartition())  # expect: E0382
    pending = [add(tile.zeros((128,), f32).partition((64,)), x, y) for _ in range(1, 4)]
    both = sk.zip(*pending)
    print(pending[0].sync_on(stream))  # expect: E0382
    both.sync_on(stream)
