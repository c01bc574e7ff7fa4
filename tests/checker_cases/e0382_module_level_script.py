"""Top-level script code is checked too: SPEC §4's example, verbatim in spirit."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)


stream = sk.Device(0).new_stream()
x = tile.ones((1024,), f32)
y = tile.ones((1024,), f32)
z = tile.zeros((1024,), f32).partition((128,))
op = add(z, x, y)
z, x, y = op.sync_on(stream)
host = z.unpartition().to_numpy(stream)
add(z, x, z).sync()  # expect: E0382@col=5
