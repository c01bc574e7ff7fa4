"""The clean twin of `e0382_map_applies_callable_per_item`: a lambda applied by `map` to distinct partitions with
distinct inputs, each run, and a bare `map(...)` that nothing iterates (lazy: nothing runs, nothing moves)."""

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
    za = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
    zb = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
    pairs = list(map(lambda zs: scale(zs[0], zs[1]).sync_on(stream), [(za, x), (zb, y)]))
    print(len(pairs))
    w = tile.ones((64,), f32).sync_on(stream)
    lazy = map(lambda src: scale(za, src), [w, w])
    del lazy
    print(w.to_numpy(stream)[:2])
