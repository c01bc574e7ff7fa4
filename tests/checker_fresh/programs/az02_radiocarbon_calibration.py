# fresh-expect: E0382 at line 75
# fresh-note: Calibrates batches of radiocarbon dates against a device-resident curve; the tile launch moves the curve tensor and the loop discards the handle sync_on hands back (_curve), so the next batch launches with the moved curve.
"""Radiocarbon calibration: posterior over calendar age for batches of 14C measurements.

The calibration curve (mean 14C age and its 1-sigma band per calendar year) is uploaded
once; lab submissions arrive as a stream of (lab code, 14C age, error) and are calibrated
eight at a time on the device, then summarised as a median and a 95% range on the host.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ROWS, COLS = 4, 64
N_GRID = 256
YEAR_STEP = 20.0
BATCH = 8


@tile.kernel
def calibrate(post: Partition[f32], curve: Tensor[f32], samples: Tensor[f32]) -> None:
    r, c = tile.bid(0), tile.bid(1)
    mu = curve.load((0, c), (1, COLS))
    sig = curve.load((1, c), (1, COLS))
    age = samples.load((r, 0), (ROWS, 1))
    err = samples.load((r, 1), (ROWS, 1))
    d = age - mu
    var = err * err + sig * sig + 1.0
    post.store(tile.exp(d * d / var * -0.5) * tile.rsqrt(var))


def synthetic_curve() -> np.ndarray:
    cal = np.arange(N_GRID, dtype=np.float64) * YEAR_STEP
    mu = 0.97 * cal + 40.0 * np.sin(cal / 120.0) + 30.0
    sig = 12.0 + 0.004 * cal
    return np.stack([mu, sig]).astype(np.float32)


def submissions(rng: np.random.Generator) -> Iterator[tuple[str, float, float]]:
    for k in range(21):
        true_cal = rng.uniform(400, 4600)
        c14 = 0.97 * true_cal + 40.0 * np.sin(true_cal / 120.0) + 30.0 + rng.normal(0, 25)
        yield f"OxA-{31000 + k}", float(c14), float(rng.uniform(20, 45))


def batches(it: Iterator[tuple[str, float, float]], size: int) -> Iterator[list[tuple[str, float, float]]]:
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def summarise(density: np.ndarray) -> tuple[float, float, float]:
    cdf = np.cumsum(density)
    cdf /= cdf[-1]
    cal = np.arange(N_GRID) * YEAR_STEP
    lo, med, hi = (cal[np.searchsorted(cdf, q)] for q in (0.025, 0.5, 0.975))
    return float(med), float(lo), float(hi)


def run(stream: sk.Stream) -> dict[str, tuple[float, float, float]]:
    curve = tile.from_numpy(synthetic_curve()).sync_on(stream)
    results: dict[str, tuple[float, float, float]] = {}
    for chunk in batches(submissions(np.random.default_rng(14)), BATCH):
        table = np.zeros((BATCH, 2), np.float32)
        table[:, 1] = 1.0
        for row, (_, age, err) in enumerate(chunk):
            table[row] = (age, err)
        post = tile.zeros((BATCH, N_GRID), f32).partition((ROWS, COLS))
        samples = tile.from_numpy(table)
        post, _curve, _ = calibrate(post, curve, samples).sync_on(stream)
        dens = post.unpartition().to_numpy(stream)
        for row, (code, _, _) in enumerate(chunk):
            results[code] = summarise(dens[row])
    return results


def main() -> None:
    stream = sk.Device.default().new_stream()
    results = run(stream)
    for code, (med, lo, hi) in sorted(results.items())[:6]:
        print(f"{code}: median {med:6.0f} cal BP  (95%: {lo:.0f}-{hi:.0f})")
    print(f"calibrated {len(results)} dates")


if __name__ == "__main__":
    main()
