# fresh-expect: E0382 at line 67
# fresh-note: threshold-then-boundary segmentation of a synthetic cell image with a generic stage helper that keeps only each stage's output; the boundary stage moves the mask tensor held in the layers dict, and the later area measurement reads that stale dict entry.
from __future__ import annotations

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

H, W, TH = 32, 32, 8


@tile.kernel
def threshold(mask: Partition[f32], img: Tensor[f32], level: f32) -> None:
    px = tile.load_like(img, mask)
    mask.store(tile.where(px > level, 1.0, 0.0))


@tile.kernel
def boundary(edge: Partition[f32], mask: Tensor[f32]) -> None:
    rows = tile.reshape(tile.iota(TH, i32), (TH, 1)) + tile.bid(0) * TH
    cols = tile.reshape(tile.iota(W, i32), (1, W))
    here = tile.gather(mask, (rows, cols))
    right = tile.gather(mask, (rows, cols + 1), other=0.0)
    below = tile.gather(mask, (rows + 1, cols), other=0.0)
    diff = tile.maximum(here - right, right - here) + tile.maximum(here - below, below - here)
    edge.store(tile.minimum(diff, 1.0))


def stage(kernel: Any, stream: sk.Stream, *inputs: Any) -> Any:
    """Run one per-pixel stage into a fresh (H, W) image and return it (as an unpartitioned tensor)."""
    out = tile.zeros((H, W), f32).partition((TH, W))
    result = kernel(out, *inputs).sync_on(stream)
    return result[0].unpartition()


def synthetic_cells(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:H, 0:W]
    img = np.zeros((H, W), np.float32)
    for _ in range(4):
        cy, cx, r = rng.integers(6, 26), rng.integers(6, 26), rng.integers(3, 6)
        img += np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2.0 * r * r)).astype(np.float32)
    return img + 0.05 * rng.standard_normal((H, W)).astype(np.float32)


class Segmenter:
    def __init__(self, stream: sk.Stream, level: float) -> None:
        self.stream = stream
        self.level = level
        self.layers: dict[str, Any] = {}

    def load(self, img: np.ndarray) -> None:
        self.layers["gray"] = tile.from_numpy(img)

    def segment(self) -> None:
        gray = self.layers.pop("gray")
        self.layers["mask"] = stage(threshold, self.stream, gray, self.level)
        self.layers["edge"] = stage(boundary, self.stream, self.layers["mask"])

    def report(self) -> dict[str, float]:
        edge = self.layers["edge"].to_numpy(self.stream)
        area = self.layers["mask"].to_numpy(self.stream).sum()
        return {"area": float(area), "perimeter": float(edge.sum())}


def main() -> None:
    dev = sk.Device.cpu()
    seg = Segmenter(dev.new_stream(), level=0.5)
    seg.load(synthetic_cells(3))
    seg.segment()
    stats = seg.report()
    assert stats["area"] > 0
    print("segmentation:", stats)


if __name__ == "__main__":
    main()
