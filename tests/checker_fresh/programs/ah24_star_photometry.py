# fresh-expect: clean
# fresh-note: a photometry chain feeds a flat-fielding launch into a magnitude launch with .then(lambda v: ...), and the lambda passes the flat-field handle the first launch handed back in v rather than the captured original.
"""Flat-fielding and per-pixel instrumental magnitudes of a CCD frame, as one lazy chain on the tile track.

The raw frame is divided by the normalized flat field; the flattened counts are then converted to
magnitudes with the night's zero point, marking vignetted pixels (flat response below half) with a
sentinel.  Aperture sums on the host give the magnitudes of a few synthetic stars.
"""

from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

H, W = 64, 96
TILE = (16, 32)
ZERO_POINT = 25.0
EXPTIME = 30.0
SENTINEL = 99.0
LN10 = math.log(10.0)


@tile.kernel
def flatten(counts: Partition[f32], raw: Tensor[f32], flat: Tensor[f32]) -> None:
    counts.store(tile.load_like(raw, counts) / tile.maximum(tile.load_like(flat, counts), 0.05))


@tile.kernel
def magnitudes(mag: Partition[f32], counts: Tensor[f32], flat: Tensor[f32], zp: f32, exptime: f32) -> None:
    rate = tile.maximum(tile.load_like(counts, mag) / exptime, 1e-6)
    m = zp - 2.5 * tile.log(rate) / LN10
    mag.store(tile.where(tile.load_like(flat, mag) < 0.5, SENTINEL, m))


def photometry_chain(raw: np.ndarray, flat_response: np.ndarray):
    flat = tile.from_numpy(flat_response)
    first = flatten(tile.zeros((H, W), f32).partition(TILE), tile.from_numpy(raw), flat)
    return first.then(
        lambda v: magnitudes(tile.zeros((H, W), f32).partition(TILE), v[0].unpartition(), v[2], ZERO_POINT, EXPTIME)
    )


def synthetic_frame(seed: int = 4) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int, float]]]:
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:H, 0:W]
    flat = (1.0 - 0.6 * (((xx - W / 2) / W) ** 2 + ((yy - H / 2) / H) ** 2) * 2.4).astype(np.float32)
    stars = [(20, 30, 5e4), (40, 70, 1.2e4), (10, 80, 3e3)]
    sky = np.full((H, W), 200.0)
    for y, x, flux in stars:
        sky += flux / (2 * np.pi * 1.5**2) * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * 1.5**2))
    raw = rng.poisson(sky * flat).astype(np.float32)
    return raw, flat, stars


def main() -> None:
    stream = sk.Device.default().new_stream()
    raw, flat, stars = synthetic_frame()
    mag, counts, flat_back, *_ = photometry_chain(raw, flat).sync_on(stream)
    mags = mag.unpartition().to_numpy(stream)
    flattened = counts.to_numpy(stream)
    np.testing.assert_allclose(flattened, raw / np.maximum(flat, 0.05), rtol=1e-5)
    assert (mags[flat_back.to_numpy(stream) < 0.5] == SENTINEL).all()
    for y, x, flux in stars:
        box = flattened[y - 4 : y + 5, x - 4 : x + 5] - 200.0
        inst = ZERO_POINT - 2.5 * math.log10(max(float(box.sum()), 1.0) / EXPTIME)
        print(f"star at ({x:2d},{y:2d}): flux {flux:8.0f} -> aperture mag {inst:6.2f}, peak-pixel mag {mags[y, x]:6.2f}")


if __name__ == "__main__":
    main()
