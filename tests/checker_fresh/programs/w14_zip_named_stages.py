# fresh-expect: E0382 at line 31
"""A pipeline keeps its stage ops by name, runs them as one batch, then re-reads one stage."""
import numpy as np


import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def affine(out: Partition[f32], x: Tensor[f32], w: f32, b: f32) -> None:
    out.store(tile.load_like(x, out) * w + b)


def build_stages(n: int) -> dict[str, sk.DeviceOp]:
    stages = {}
    for name, (w, b) in {"embed": (2.0, 0.0), "proj": (0.5, 1.0), "head": (1.0, -1.0)}.items():
        x = tile.from_numpy(np.full(n, 3.0, dtype=np.float32))
        stages[name] = affine(tile.zeros((n,), f32).partition((128,)), x, w, b)
    return stages


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    stages = build_stages(512)
    batch = sk.zip(*stages.values())
    outputs = batch.sync_on(stream)
    print(len(outputs), "stages ran")
    head_out, _, _, _ = stages["head"].sync_on(stream)
    print(head_out.unpartition().to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
