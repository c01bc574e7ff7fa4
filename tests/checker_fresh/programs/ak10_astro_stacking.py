# fresh-expect: clean
# fresh-note: Calibrated stacking that always runs the hot-pixel mask launch first, shares the mask and calibration frames read-only across every accumulate, and streams frames from a generator.
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

H, W = 48, 64
TILE = (16, 32)


@tile.kernel
def hot_pixels(mask: Partition[i32], dark: Tensor[f32], thresh: f32) -> None:
    mask.store(tile.where(tile.load_like(dark, mask) > thresh, 0, 1))


@tile.kernel
def calibrate_add(acc: Partition[f32], raw: Tensor[f32], dark: Tensor[f32], flat: Tensor[f32], good: Tensor[i32],
                  weight: f32) -> None:
    r = tile.load_like(raw, acc)
    cal = (r - tile.load_like(dark, acc)) / tile.maximum(tile.load_like(flat, acc), 0.05)
    keep = tile.load_like(good, acc) > 0
    acc.store(acc.load() + tile.where(keep, cal * weight, 0.0))


def frames(rng: np.random.Generator, count: int) -> Iterator[tuple[np.ndarray, float]]:
    yy, xx = np.mgrid[0:H, 0:W]
    galaxy = 80.0 * np.exp(-((yy - 20) ** 2 / 30.0 + (xx - 40) ** 2 / 80.0))
    for _ in range(count):
        seeing = float(rng.uniform(0.8, 2.2))
        yield (galaxy + rng.normal(12.0, 4.0, (H, W))).astype(np.float32), seeing


class MaskedStacker:
    def __init__(self, stream: sk.Stream, dark: np.ndarray, flat: np.ndarray) -> None:
        self.stream = stream
        self.dark = tile.from_numpy(dark).shared()
        self.flat = tile.from_numpy(flat).shared()
        mask, _dark, _t = hot_pixels(tile.zeros((H, W), i32).partition(TILE), self.dark, 20.0).sync_on(stream)
        self.good_count = int(mask.to_numpy(stream).sum())
        self.good = tile.from_numpy(mask.unpartition().to_numpy(stream)).shared()
        self.acc = tile.zeros((H, W), f32).partition(TILE)
        self.weight = 0.0

    def add(self, frame: np.ndarray, seeing: float) -> None:
        w = 1.0 / (seeing * seeing)
        self.acc, *_rest = calibrate_add(self.acc, tile.from_numpy(frame), self.dark, self.flat, self.good,
                                          w).sync_on(self.stream)
        self.weight += w

    def image(self) -> np.ndarray:
        return self.acc.to_numpy(self.stream) / self.weight


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(8)
    dark = rng.gamma(2.0, 0.6, (H, W)).astype(np.float32)
    dark[rng.integers(0, H, 10), rng.integers(0, W, 10)] = 55.0
    flat = np.linspace(0.8, 1.1, W, dtype=np.float32)[None, :].repeat(H, axis=0)
    stacker = MaskedStacker(stream, dark, flat)
    for frame, seeing in frames(rng, 5):
        stacker.add(frame, seeing)
    img = stacker.image()
    print(f"usable pixels {stacker.good_count}/{H * W}; peak {img.max():.1f} at {np.unravel_index(img.argmax(), img.shape)}")


if __name__ == "__main__":
    main()
