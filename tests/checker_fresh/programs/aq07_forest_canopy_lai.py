# fresh-expect: clean
# fresh-note: Forest canopy LAI: a closure per forest type shares the red/NIR band ops with `.shared()` between an NDVI and a gap-fraction tile launch, takes each result with `.first()` and runs both with one `sk.zip` (clean twin of the crop NDVI program).
"""Forest canopy leaf area index (LAI) from satellite plots.

Per plot, the red and near-infrared bands are shared read-only between two kernels: an NDVI kernel and a
canopy-gap kernel.  LAI follows from NDVI with a Beer-Lambert style inversion on the host once the chain has
run.  Plots are processed by a closure that remembers the extinction coefficient of the forest type.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 512


@tile.kernel
def ndvi(out: Partition[f32], red: Tensor[f32], nir: Tensor[f32]) -> None:
    r = tile.load_like(red, out)
    n = tile.load_like(nir, out)
    out.store((n - r) / tile.maximum(n + r, 1e-6))


@tile.kernel
def gap_fraction(out: Partition[f32], red: Tensor[f32], nir: Tensor[f32], soil_ratio: f32) -> None:
    ratio = tile.load_like(nir, out) / tile.maximum(tile.load_like(red, out), 1e-6)
    out.store(tile.where(ratio < soil_ratio, 1.0, 0.0))


def lai_processor(extinction: float, stream: sk.Stream) -> Callable[[dict[str, np.ndarray]], tuple[float, float]]:
    ndvi_soil, ndvi_dense = 0.15, 0.92

    def process(bands: dict[str, np.ndarray]) -> tuple[float, float]:
        n = len(bands["red"])
        red = tile.from_numpy(bands["red"].astype(np.float32)).shared()
        nir = tile.from_numpy(bands["nir"].astype(np.float32)).shared()
        greenness = ndvi(tile.zeros((n,), f32).partition((TILE,)), red, nir).first()
        gaps = gap_fraction(tile.zeros((n,), f32).partition((TILE,)), red, nir, 1.6).first()
        g, gap = sk.zip(greenness, gaps).sync_on(stream)
        values = g.unpartition().to_numpy(stream)
        cover = np.clip((values - ndvi_soil) / (ndvi_dense - ndvi_soil), 1e-3, 0.999)
        lai = -np.log(1.0 - cover) / extinction
        return float(lai.mean()), float(gap.unpartition().to_numpy(stream).mean())

    return process


def plot_bands(rng: np.random.Generator, trees: int, density: float) -> dict[str, np.ndarray]:
    canopy = rng.random(trees) < density
    red = np.where(canopy, rng.normal(0.04, 0.01, trees), rng.normal(0.18, 0.02, trees))
    nir = np.where(canopy, rng.normal(0.42, 0.05, trees), rng.normal(0.24, 0.03, trees))
    return {"red": np.clip(red, 0.005, 1.0), "nir": np.clip(nir, 0.005, 1.0)}


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(19)
    processors = {
        "broadleaf": lai_processor(extinction=0.5, stream=stream),
        "conifer": lai_processor(extinction=math.cos(math.radians(57.5)) * 0.9, stream=stream),
    }
    plots = [("oak-ridge", "broadleaf", 0.8), ("pine-flat", "conifer", 0.6), ("beech-hollow", "broadleaf", 0.4)]
    for plot, forest_type, density in plots:
        lai, gaps = processors[forest_type](plot_bands(rng, 5000, density))
        print(f"{plot:<13} {forest_type:<9} LAI {lai:4.2f}  gap fraction {gaps:.2f}")


if __name__ == "__main__":
    main()
