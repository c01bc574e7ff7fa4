"""One flag, bound to a literal and never rebound, decides both the launch and the take-back: the two `if`
statements take the same arm, so `z` and `x` are back before they are read (the look-alike:
e0382_flag_rebound_between_tests)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((128,), f32).sync_on(stream)
    z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    double = True
    if double:
        op = scale(z, x)
    if double:
        z, x = op.sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:2], x.to_numpy(stream)[:2])
