# fresh-expect: W0003 at line 25
# fresh-known-miss: cli,mypy zip(labels, ops) with fewer labels than ops drops the last op unrun; zip's truncation is not followed (W0003)
"""Clip several named channels of an image to [0, 1] with one tile launch each, then report them."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BLOCK = (16, 16)


@tile.kernel
def clip01(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.minimum(tile.maximum(tile.load_like(x, out), 0.0), 1.0))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(47)
    image = (rng.standard_normal((4, 48, 64)) * 0.5 + 0.5).astype(np.float32)  # RGBA planes
    labels = ["red", "green", "blue"]
    ops = [clip01(tile.zeros(plane.shape, f32).partition(BLOCK), tile.from_numpy(plane)) for plane in image]
    clipped = {}
    for label, op in zip(labels, ops):
        out, _x = op.sync_on(stream)
        clipped[label] = out.unpartition().to_numpy(stream)
    for label, plane in clipped.items():
        assert 0.0 <= plane.min() and plane.max() <= 1.0
        print(f"{label}: mean {plane.mean():.3f}")


if __name__ == "__main__":
    main()
