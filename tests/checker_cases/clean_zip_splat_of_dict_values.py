"""The twin of e0382_zip_splat_of_dict_values: the ops of a dict display splatted into `sk.zip` by their values
are run once, by the zip; the code reads what the zipped op hands back at `sync_on`."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def affine(out: Partition[f32], x: Tensor[f32], w: f32, b: f32) -> None:
    out.store(tile.load_like(x, out) * w + b)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.from_numpy(np.full(256, 3.0, dtype=np.float32))
    y = tile.from_numpy(np.full(256, 1.0, dtype=np.float32))
    stages = {
        "a": affine(tile.zeros((256,), f32).partition((128,)), x, 2.0, 0.0),
        "b": affine(tile.zeros((256,), f32).partition((128,)), y, 1.0, 1.0),
    }
    outputs = sk.zip(*stages.values()).sync_on(stream)
    print(len(outputs), "stages ran")
    b_out, _, _, _ = outputs[1]
    print(b_out.unpartition().to_numpy(stream)[:3])
