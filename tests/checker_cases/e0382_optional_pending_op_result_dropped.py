"""The look-alike of `clean_optional_pending_op_under_none_guard`: the guarded `sync_on` runs the op but drops
the values it hands back, so on the path that built the op `z` stays moved into it."""

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
        pending.sync_on(stream)
    return float(z.unpartition().to_numpy(stream)[0])  # expect: E0382
