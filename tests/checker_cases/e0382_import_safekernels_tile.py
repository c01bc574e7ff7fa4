"""The kernel decorator reached through `import safekernels.tile` (a dotted module import)."""

import safekernels
import safekernels.tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@safekernels.tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(safekernels.tile.load_like(x, z) * 2.0)


def main() -> None:
    stream = safekernels.Device(0).new_stream()
    x = safekernels.tile.ones((512,), f32)
    z = safekernels.tile.zeros((512,), f32).partition((128,))
    op = double(z, x)
    z, x = op.sync_on(stream)
    op2 = double(z, x)
    print(x.sync_on(stream), op2)  # expect: E0382
