# fresh-expect: E0382 at line 20
"""Reusing one output tensor across iterations: partition moves it."""
import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    out = tile.zeros((256,), f32).sync_on(stream)
    results = []
    for step in range(3):
        z = out.partition((64,))  # BUG E0382
        x = tile.full((256,), float(step), f32)
        y = tile.ones((256,), f32)
        z, x, y = add(z, x, y).sync_on(stream)
        results.append(z.to_numpy(stream))
    print(np.stack(results).sum())


main()
