"""The host code after the kernel still moves: `x` went into the launch."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def blocked(z: Partition[f32], x: Tensor[f32]) -> None:
    parts = x.partition((128,))
    t = parts.load((tile.bid(0),))
    z.store(t + tile.load_like(x, z))


def main() -> None:
    stream = sk.Device.default().new_stream()
    x = tile.from_numpy(np.arange(512, dtype=np.float32))
    z = tile.zeros((512,), f32).partition((128,))
    op = blocked(z, x)
    print(x.sync_on(stream))  # expect: E0382
    op.sync_on(stream)
