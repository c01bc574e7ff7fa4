"""`list(map(f, items))` runs `f` on each item in order before `list` returns: a lambda (or a helper of the module)
that moves what it captures moves it again for the second item, and one that moves its argument moves each item."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((64,), f32).sync_on(stream)
    y = tile.ones((64,), f32).sync_on(stream)
    z = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
    print(list(map(lambda src: scale(z, src).sync_on(stream), [x, y])))  # expect: E0382
    parts = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
    w = tile.ones((64,), f32).sync_on(stream)
    print(list(map(lambda dst: scale(dst, w).sync_on(stream), [parts])))
    print(w.to_numpy(stream)[:2])  # expect: E0382
