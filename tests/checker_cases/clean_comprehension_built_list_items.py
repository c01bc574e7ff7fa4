"""The clean twin of `e0382_comprehension_built_list_items`: each item of a comprehension-built list is launched
once, a loop that stops early leaves the later items usable, and the zipped ops are used only through the zip."""

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
    for part in parts:
        scale(part, x).sync_on(stream)
        break
    print(parts[1].unpartition(), parts[2].unpartition())
    more = [t.partition((64,)) for t in (tile.zeros((128,), f32), tile.ones((128,), f32))]
    done = [scale(p, x).sync_on(stream) for p in more]
    print(len(done))
    pending = [add(tile.zeros((128,), f32).partition((64,)), x, y) for _ in range(1, 4)]
    both = sk.zip(*pending)
    print(both.sync_on(stream))
