# fresh-expect: E0382 at line 34
# fresh-note: -
"""Multi-stage tile pipeline: normalize, then scale the first output lazily, then report."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def shift(out: Partition[f32], x: Tensor[f32], bias: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) - tile.load_like(bias, out))


@tile.kernel
def scale(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 2.0)


def stage_two(first_out: Partition[f32]) -> sk.DeviceOp:
    target = tile.zeros((256,), f32).partition((64,))
    return scale(target, first_out.unpartition())


stream = sk.Device.cpu().new_stream()
data = tile.from_numpy(np.arange(256, dtype=np.float32))
bias = tile.full((256,), 1.0, f32)
stage_one = shift(tile.zeros((256,), f32).partition((64,)), data, bias)
pipeline = stage_one.first().then(stage_two)
debug = {"stage": "one"}
if debug["stage"] == "one":
    out, _, _ = stage_one.sync_on(stream)
    print("stage one", out.to_numpy(stream)[:3])
result, _ = pipeline.sync_on(stream)
print(result.to_numpy(stream)[:3])
