# fresh-expect: W0003 at line 60
# fresh-note: Dark/flat-calibrated frame stacking whose finish() builds the hot-pixel QA launch up front but only syncs it when verbose, so in quiet runs the kernel never runs.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

H, W = 64, 64
TILE = (16, 32)


@tile.kernel
def calibrate_add(acc: Partition[f32], raw: Tensor[f32], dark: Tensor[f32], flat: Tensor[f32], weight: f32) -> None:
    r = tile.load_like(raw, acc)
    d = tile.load_like(dark, acc)
    f = tile.load_like(flat, acc)
    acc.store(acc.load() + weight * (r - d) / tile.maximum(f, 0.05))


@tile.kernel
def hot_pixels(mask: Partition[i32], dark: Tensor[f32], thresh: f32) -> None:
    mask.store(tile.where(tile.load_like(dark, mask) > thresh, 1, 0))


@dataclass
class Calibration:
    dark: sk.DeviceOp
    flat: sk.DeviceOp


def load_calibration(rng: np.random.Generator) -> Calibration:
    dark = rng.gamma(2.0, 0.5, (H, W)).astype(np.float32)
    dark[rng.integers(0, H, 12), rng.integers(0, W, 12)] = 40.0
    yy, xx = np.mgrid[0:H, 0:W]
    flat = (1.0 - 0.3 * (((yy - H / 2) ** 2 + (xx - W / 2) ** 2) / (H * W / 2))).astype(np.float32)
    return Calibration(tile.from_numpy(dark).shared(), tile.from_numpy(flat).shared())


class Stacker:
    def __init__(self, stream: sk.Stream, cal: Calibration, verbose: bool = False) -> None:
        self.stream = stream
        self.cal = cal
        self.verbose = verbose
        self.acc = tile.zeros((H, W), f32).partition(TILE)
        self.total_weight = 0.0

    def add(self, frame: np.ndarray, seeing: float) -> None:
        weight = 1.0 / (seeing * seeing)
        op = calibrate_add(self.acc, tile.from_numpy(frame), self.cal.dark, self.cal.flat, weight)
        self.acc, _raw, _dark, _flat, _w = op.sync_on(self.stream)
        self.total_weight += weight

    def finish(self) -> np.ndarray:
        hot_op = hot_pixels(tile.zeros((H, W), i32).partition(TILE), self.cal.dark, 20.0)
        if self.verbose:
            mask, *_ = hot_op.sync_on(self.stream)
            print("hot pixels:", int(mask.unpartition().to_numpy(self.stream).sum()))
        image = self.acc.unpartition().to_numpy(self.stream) / self.total_weight
        self.acc = tile.zeros((H, W), f32).partition(TILE)
        self.total_weight = 0.0
        return image


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(42)
    cal = load_calibration(rng)
    stacker = Stacker(stream, cal)
    yy, xx = np.mgrid[0:H, 0:W]
    star = 200.0 * np.exp(-((yy - 30) ** 2 + (xx - 22) ** 2) / 6.0)
    for seeing in (1.1, 1.4, 0.9, 2.0):
        frame = (star + rng.normal(10.0, 3.0, (H, W))).astype(np.float32)
        stacker.add(frame, seeing)
    image = stacker.finish()
    peak = np.unravel_index(image.argmax(), image.shape)
    print(f"stacked peak at {tuple(int(v) for v in peak)}, background {np.median(image):.2f}")


if __name__ == "__main__":
    main()
