# fresh-expect: clean
# fresh-note: Standardises stitched quasar light curves through a lambda around the tile launch; the lambda takes the magnitudes tensor as an argument rather than capturing it, and each call's caller rebinds mags to the handle sync_on hands back before the second pass.
"""Quasar variability: standardise multi-band light curves and estimate a damped-random-walk timescale.

Two survey seasons are stitched per band; each band's light curve is standardised on the device
(subtract the mean magnitude, divide by the scatter) by a tile kernel, then the host fits the
structure function SF(tau) = SF_inf * sqrt(1 - exp(-tau / tau_drw)) on a grid of timescales.
"""
from __future__ import annotations

import functools
import itertools

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N_EPOCHS = 256
TILE = 64


@tile.kernel
def standardise(out: Partition[f32], mags: Tensor[f32], mean: f32, inv_sd: f32) -> None:
    out.store((tile.load_like(mags, out) - mean) * inv_sd)


def drw_light_curve(rng: np.random.Generator, n: int, tau: float, sigma: float, mean: float) -> np.ndarray:
    x = np.empty(n)
    x[0] = rng.normal(0, sigma)
    a = np.exp(-1.0 / tau)
    for k in range(1, n):
        x[k] = a * x[k - 1] + rng.normal(0, sigma * np.sqrt(1 - a * a))
    return mean + x


def structure_function(z: np.ndarray, lags: np.ndarray) -> np.ndarray:
    return np.array([np.sqrt(np.mean((z[lag:] - z[:-lag]) ** 2)) for lag in lags])


def fit_tau(sf: np.ndarray, lags: np.ndarray) -> float:
    grid = np.geomspace(5.0, 500.0, 60)
    sf_inf = np.sqrt(2.0)                                # standardised curve: unit variance
    cost = [np.sum((sf - sf_inf * np.sqrt(1 - np.exp(-lags / t))) ** 2) for t in grid]
    return float(grid[int(np.argmin(cost))])


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(3273)
    blank = lambda: tile.zeros((N_EPOCHS,), f32).partition((TILE,))
    run = lambda mags, mu, isd: standardise(blank(), mags, mu, isd).sync_on(stream)
    seasons = {band: (drw_light_curve(rng, N_EPOCHS // 2, 60.0, s, m), drw_light_curve(rng, N_EPOCHS // 2, 60.0, s, m))
               for band, s, m in (("g", 0.25, 19.1), ("r", 0.18, 18.8), ("i", 0.14, 18.6))}
    lags = np.arange(1, 80, 3)

    for band, (first, second) in seasons.items():
        stitched = np.fromiter(itertools.chain(first, second), dtype=np.float32, count=N_EPOCHS)
        mags = tile.from_numpy(stitched).sync_on(stream)
        mu, sd = float(stitched.mean()), float(stitched.std())
        out, mags, *_ = run(mags, mu, 1.0 / sd)
        z = out.unpartition().to_numpy(stream)
        # second pass on the same device copy: clip 4-sigma outliers and re-standardise
        clipped = np.abs(z) < 4.0
        mu2 = float(stitched[clipped].mean())
        sd2 = float(stitched[clipped].std())
        out, mags, *_ = run(mags, mu2, 1.0 / sd2)
        z = out.unpartition().to_numpy(stream)
        sf = structure_function(z, lags)
        print(f"{band}: <m> {mu2:.2f}, rms {sd2:.3f} mag, tau_DRW ~ {fit_tau(sf, lags):5.1f} d")

    total = functools.reduce(lambda acc, pair: acc + len(pair[0]) + len(pair[1]), seasons.values(), 0)
    print(f"{total} epochs across {len(seasons)} bands")


if __name__ == "__main__":
    main()
