# fresh-expect: E0382 at line 66
# fresh-note: build_member moves the coarse temperature op into the upsample launch and then passes the same coarse_t again to the anomaly launch of the chain.
"""Statistical downscaling of a coarse 2 m temperature forecast onto a 4x finer terrain grid.

The coarse field (16 x 16) is upsampled to the fine grid (64 x 64) by nearest cell, corrected with the standard
lapse rate for the elevation difference between the fine terrain and the coarse model orography, and the fine-scale
anomaly against the coarse field is kept for verification.  Each ensemble member is one lazy chain of tile launches;
the members are zipped and run together.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

COARSE = 16
FACTOR = 4
FINE = COARSE * FACTOR
BLOCK = 16
LAPSE = -0.0065


@tile.function
def nearest(coarse, bi, bj):
    rows = tile.reshape(tile.iota(BLOCK, i32) // FACTOR + bi * (BLOCK // FACTOR), (BLOCK, 1))
    cols = tile.reshape(tile.iota(BLOCK, i32) // FACTOR + bj * (BLOCK // FACTOR), (1, BLOCK))
    return tile.gather(coarse, (rows, cols))


@tile.kernel
def upsample(out: Partition[f32], coarse: Tensor[f32]) -> None:
    out.store(nearest(coarse, tile.bid(0), tile.bid(1)))


@tile.kernel
def lapse_correct(out: Partition[f32], up: Tensor[f32], fine_z: Tensor[f32], coarse_z: Tensor[f32],
                  lapse: f32) -> None:
    dz = tile.load_like(fine_z, out) - nearest(coarse_z, tile.bid(0), tile.bid(1))
    out.store(tile.load_like(up, out) + dz * lapse)


@tile.kernel
def anomaly(out: Partition[f32], fine: Tensor[f32], coarse: Tensor[f32]) -> None:
    out.store(tile.load_like(fine, out) - nearest(coarse, tile.bid(0), tile.bid(1)))


def fine_grid() -> sk.DeviceOp:
    return tile.zeros((FINE, FINE), f32).partition((BLOCK, BLOCK))


def terrain(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    y, x = np.mgrid[0:FINE, 0:FINE] / FINE
    fine = 1800.0 * np.exp(-((x - 0.6) ** 2 + (y - 0.4) ** 2) / 0.02) + 50.0 * rng.random((FINE, FINE))
    coarse = fine.reshape(COARSE, FACTOR, COARSE, FACTOR).mean(axis=(1, 3))
    return fine.astype(np.float32), coarse.astype(np.float32)


def build_member(coarse_temp: np.ndarray, fine_z: np.ndarray, coarse_z: np.ndarray) -> sk.DeviceOp:
    coarse_t = tile.from_numpy(coarse_temp)
    up = upsample(fine_grid(), coarse_t).first().unpartition()
    fine = lapse_correct(fine_grid(), up, tile.from_numpy(fine_z), tile.from_numpy(coarse_z), LAPSE)
    return anomaly(fine_grid(), fine.first().unpartition(), coarse_t)


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(500)
    fine_z, coarse_z = terrain(rng)
    base = (15.0 - 0.0065 * coarse_z).astype(np.float32)
    members = [build_member(base + rng.normal(0.0, 0.5, base.shape).astype(np.float32), fine_z, coarse_z)
               for _ in range(2)]
    results = sk.zip(*members).sync_on(stream)
    for k, (anom, fine, _coarse) in enumerate(results):
        a = anom.unpartition().to_numpy(stream)
        t = fine.to_numpy(stream)
        peak = np.unravel_index(np.argmax(fine_z), fine_z.shape)
        print(f"member {k}: fine T range {t.min():.1f}..{t.max():.1f} C, summit {t[peak]:.1f} C, "
              f"anomaly std {a.std():.2f} K")


if __name__ == "__main__":
    main()
