# fresh-expect: clean
# fresh-note: hysteresis segmentation of a synthetic tissue image: a shared grayscale op feeds a strong and a weak threshold zipped into one sync, and every stage hands its inputs back into the layer dict before they are read again.
from __future__ import annotations

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

H, W, TH = 24, 32, 8


@tile.kernel
def threshold(mask: Partition[f32], img: Tensor[f32], level: f32) -> None:
    mask.store(tile.where(tile.load_like(img, mask) > level, 1.0, 0.0))


@tile.kernel
def grow(out: Partition[f32], strong: Tensor[f32], weak: Tensor[f32]) -> None:
    rows = tile.reshape(tile.iota(TH, i32), (TH, 1)) + tile.bid(0) * TH
    cols = tile.reshape(tile.iota(W, i32), (1, W))
    s = tile.gather(strong, (rows, cols))
    left = tile.gather(strong, (rows, cols - 1), other=0.0)
    right = tile.gather(strong, (rows, cols + 1), other=0.0)
    w = tile.load_like(weak, out)
    near = tile.maximum(tile.maximum(left, right), s)
    out.store(tile.maximum(s, w * near))


def tissue(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:H, 0:W]
    img = 0.9 * np.exp(-((yy - 12.0) ** 2 + (xx - 16.0) ** 2) / 40.0)
    return (img + 0.1 * rng.random((H, W))).astype(np.float32)


class Hysteresis:
    def __init__(self, stream: sk.Stream, hi: float, lo: float) -> None:
        self.stream = stream
        self.hi, self.lo = hi, lo
        self.layers: dict[str, Any] = {}

    def run(self, img: np.ndarray) -> None:
        gray = tile.from_numpy(img).shared()
        strong_op = threshold(tile.zeros((H, W), f32).partition((TH, W)), gray, self.hi)
        weak_op = threshold(tile.zeros((H, W), f32).partition((TH, W)), gray, self.lo)
        (strong, _g1, _l1), (weak, _g2, _l2) = sk.zip(strong_op, weak_op).sync_on(self.stream)
        self.layers["strong"] = strong.unpartition()
        self.layers["weak"] = weak.unpartition()
        out = tile.zeros((H, W), f32).partition((TH, W))
        out, self.layers["strong"], self.layers["weak"] = grow(
            out, self.layers["strong"], self.layers["weak"]
        ).sync_on(self.stream)
        self.layers["final"] = out.unpartition()

    def areas(self) -> dict[str, float]:
        return {name: float(t.to_numpy(self.stream).sum()) for name, t in self.layers.items()}


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    h = Hysteresis(stream, hi=0.7, lo=0.4)
    h.run(tissue(1))
    a = h.areas()
    assert a["strong"] <= a["final"] <= a["weak"] + a["strong"]
    print("areas:", a)


if __name__ == "__main__":
    main()
