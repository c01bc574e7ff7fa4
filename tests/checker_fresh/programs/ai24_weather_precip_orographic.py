# fresh-expect: clean
# fresh-note: the coarse precipitation op is made .shared() before build_member passes it to both the upsample and the residual launches of the chain, and a then callback reshapes the chain's result.
"""Downscaling a coarse precipitation forecast with an orographic enhancement factor.

The coarse field (16 x 16, mm/h) is upsampled to the 64 x 64 terrain grid by nearest cell, scaled up on windward
slopes by a factor from the terrain gradient, and the residual against the coarse field is kept for verification.
Each ensemble member is one lazy chain of tile launches; the members are zipped and run together.
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
ENHANCE = 0.004


@tile.function
def nearest(coarse, bi, bj):
    rows = tile.reshape(tile.iota(BLOCK, i32) // FACTOR + bi * (BLOCK // FACTOR), (BLOCK, 1))
    cols = tile.reshape(tile.iota(BLOCK, i32) // FACTOR + bj * (BLOCK // FACTOR), (1, BLOCK))
    return tile.gather(coarse, (rows, cols))


@tile.kernel
def upsample(out: Partition[f32], coarse: Tensor[f32]) -> None:
    out.store(nearest(coarse, tile.bid(0), tile.bid(1)))


@tile.kernel
def orographic(out: Partition[f32], up: Tensor[f32], windward: Tensor[f32], enhance: f32) -> None:
    lift = tile.maximum(tile.load_like(windward, out), 0.0)
    out.store(tile.load_like(up, out) * (lift * enhance + 1.0))


@tile.kernel
def residual(out: Partition[f32], fine: Tensor[f32], coarse: Tensor[f32]) -> None:
    out.store(tile.load_like(fine, out) - nearest(coarse, tile.bid(0), tile.bid(1)))


def fine_grid() -> sk.DeviceOp:
    return tile.zeros((FINE, FINE), f32).partition((BLOCK, BLOCK))


def windward_slope(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    y, x = np.mgrid[0:FINE, 0:FINE] / FINE
    height = 1500.0 * np.exp(-((x - 0.5) ** 2) / 0.01) + 30.0 * rng.random((FINE, FINE))
    slope = -np.gradient(height, axis=1)  # easterly flow: rising terrain towards the west
    return height.astype(np.float32), slope.astype(np.float32)


def build_member(coarse_precip: np.ndarray, windward: np.ndarray) -> sk.DeviceOp:
    coarse_p = tile.from_numpy(coarse_precip).shared()
    up = upsample(fine_grid(), coarse_p).first().unpartition()
    fine = orographic(fine_grid(), up, tile.from_numpy(windward), ENHANCE)
    chain = residual(fine_grid(), fine.first().unpartition(), coarse_p)
    return chain.then(lambda values: (values[0].unpartition(), values[1]))


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(808)
    height, windward = windward_slope(rng)
    base = rng.gamma(2.0, 1.5, (COARSE, COARSE)).astype(np.float32)
    members = [build_member((base * rng.uniform(0.8, 1.2)).astype(np.float32), windward) for _ in range(2)]
    results = sk.zip(*members).sync_on(stream)
    for k, (resid, fine) in enumerate(results):
        r = resid.to_numpy(stream)
        p = fine.to_numpy(stream)
        windward_side = p[:, FINE // 2 + 2:FINE // 2 + 8].mean()
        lee_side = p[:, FINE // 2 - 8:FINE // 2 - 2].mean()
        print(f"member {k}: domain mean {p.mean():.2f} mm/h, windward {windward_side:.2f} vs lee {lee_side:.2f} mm/h, "
              f"max enhancement {r.max():.2f} mm/h")


if __name__ == "__main__":
    main()
