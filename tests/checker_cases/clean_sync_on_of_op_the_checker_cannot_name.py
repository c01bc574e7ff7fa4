"""The clean twin of `e0382_sync_on_of_op_the_checker_cannot_name`: each op a helper returns through an `Any`
annotation, or a comprehension put in a list, is run by one `sync_on`, and what is read afterwards is the value
that `sync_on` returned."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def scaled(x: Tensor[f32]) -> Any:  # the op its launch builds
    return scale(tile.zeros((128,), f32).partition((64,)), x)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((128,), f32).shared()
    op = scaled(x)
    z, _ = op.sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:2])
    ops = [scaled(x) for _ in range(2)]
    for pending in ops:
        pending.sync_on(stream)
    done = [scaled(x).sync_on(stream) for _ in range(2)]
    print(len(done))
