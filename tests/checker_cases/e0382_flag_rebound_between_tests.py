"""The look-alike of `clean_flag_tested_twice`: the flag is rebound between the two tests, so the second `if`
no longer takes the arm the first one took: the op never runs (W0003) and `z` stays moved into it."""

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
        op = scale(z, x)  # expect: W0003
    double = False
    if double:
        z, x = op.sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:2])  # expect: E0382
