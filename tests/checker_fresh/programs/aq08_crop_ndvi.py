# fresh-expect: E0382 at line 59
# fresh-note: Crop NDVI/NDMI from drone bands with lazily chained tile launches; bug: `shared_bands()` consumes every band op of `scene.bands` with `.shared()`, but the irrigated-field branch at line 59 passes `scene.bands["swir"]` (the moved original) instead of `bands["swir"]`.
"""Crop health from multispectral drone imagery: NDVI for every field, NDMI (moisture) for irrigated ones.

Each field's bands are uploaded once and shared read-only between the index kernels, whose launches are
chained lazily and run together with one `sk.zip(...).sync_on(stream)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 256


@tile.kernel
def ndvi(out: Partition[f32], red: Tensor[f32], nir: Tensor[f32]) -> None:
    r = tile.load_like(red, out)
    n = tile.load_like(nir, out)
    out.store((n - r) / tile.maximum(n + r, 1e-6))


@tile.kernel
def ndmi(out: Partition[f32], nir: Tensor[f32], swir: Tensor[f32]) -> None:
    n = tile.load_like(nir, out)
    s = tile.load_like(swir, out)
    out.store((n - s) / tile.maximum(n + s, 1e-6))


@dataclass
class FieldScene:
    name: str
    irrigated: bool
    pixels: int
    bands: dict[str, sk.DeviceOp] = field(default_factory=dict)

    def upload(self, reflectance: dict[str, np.ndarray]) -> None:
        self.bands = {band: tile.from_numpy(values.astype(np.float32)) for band, values in reflectance.items()}

    def shared_bands(self) -> dict[str, sk.DeviceOp]:
        return {band: op.shared() for band, op in self.bands.items()}


def blank(n: int) -> sk.DeviceOp:
    return tile.zeros((n,), f32).partition((TILE,))


def indices(scene: FieldScene, stream: sk.Stream) -> dict[str, np.ndarray]:
    bands = scene.shared_bands()
    jobs = {"ndvi": ndvi(blank(scene.pixels), bands["red"], bands["nir"]).first().unpartition()}
    if scene.irrigated:
        jobs["ndmi"] = ndmi(blank(scene.pixels), bands["nir"], scene.bands["swir"]).first().unpartition()
    tensors = sk.zip(*jobs.values()).sync_on(stream)
    return {name: t.to_numpy(stream) for name, t in zip(jobs, tensors)}


def simulate(name: str, irrigated: bool, pixels: int, rng: np.random.Generator) -> FieldScene:
    scene = FieldScene(name, irrigated, pixels)
    vigour = rng.uniform(0.3, 0.9, pixels)
    scene.upload({
        "red": 0.12 - 0.08 * vigour + rng.normal(0, 0.005, pixels),
        "nir": 0.25 + 0.45 * vigour + rng.normal(0, 0.01, pixels),
        "swir": 0.30 - 0.15 * vigour * (1.3 if irrigated else 1.0),
    })
    return scene


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(5)
    plan = [("north-wheat", False, 3000), ("river-maize", True, 4096), ("east-barley", False, 2500)]
    for name, irrigated, pixels in plan:
        scene = simulate(name, irrigated, pixels, rng)
        result = indices(scene, stream)
        parts = ", ".join(f"{k} {v.mean():.3f}" for k, v in result.items())
        print(f"{name:<12} {parts}")


if __name__ == "__main__":
    main()
