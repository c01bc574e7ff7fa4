"""A dict display of tile-launch ops splatted into `sk.zip` by its values (`sk.zip(*stages.values())`) moves each
of its items, as a splat of a list display does: running one of them afterwards (`stages["b"].sync_on(stream)`)
is a use after move (the runtime raises `UseAfterMoveError` there)."""

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
    b_out, _, _, _ = stages["b"].sync_on(stream)  # expect: E0382
    print(b_out.unpartition().to_numpy(stream)[:3])
