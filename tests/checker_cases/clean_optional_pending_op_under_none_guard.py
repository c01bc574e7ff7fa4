"""An op built on one path only (`pending = None`, then `pending = scale(z, x)` under a condition) and run under
`if pending is not None:`: the path that moved `z` and `x` into the op is the one that takes them back, so
neither is maybe-moved afterwards (the look-alike: e0382_optional_pending_op_result_dropped)."""

import os

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def main() -> float:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((128,), f32).sync_on(stream)
    z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    pending = None
    if os.environ.get("SKIP_SCALE") is None:
        pending = scale(z, x)
    if pending is not None:
        z, x = pending.sync_on(stream)
    return float(z.unpartition().to_numpy(stream)[0])
