# fresh-expect: clean
# fresh-note: Mining block-model grade estimation (inverse-distance weighting): every drillhole column and block centre is a `.shared()` op, so each estimation pass reads them without moving them.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

S = 64  # drillhole samples in one search neighbourhood (one tile)
BT = 32  # model blocks per tile block
CUTOFF = 1.2  # g/t


@tile.kernel
def idw(out: Partition[f32], gx: Tensor[f32], gy: Tensor[f32], sx: Tensor[f32], sy: Tensor[f32],
        grade: Tensor[f32], power: f32) -> None:
    px = tile.reshape(tile.load_like(gx, out), (BT, 1))
    py = tile.reshape(tile.load_like(gy, out), (BT, 1))
    qx = tile.reshape(sx.load((0,), (S,)), (1, S))
    qy = tile.reshape(sy.load((0,), (S,)), (1, S))
    g = tile.reshape(grade.load((0,), (S,)), (1, S))
    valid = tile.reshape(tile.iota(S, i32) < sx.shape[0], (1, S))
    d2 = (px - qx) * (px - qx) + (py - qy) * (py - qy) + 1.0
    w = tile.where(valid, tile.exp(tile.log(d2) * (-0.5 * power)), 0.0)
    out.store(tile.sum(w * g, axis=1) / tile.sum(w, axis=1))


@dataclass
class Samples:
    x: sk.DeviceOp
    y: sk.DeviceOp
    grade: sk.DeviceOp
    count: int

    @classmethod
    def from_drillholes(cls, holes: dict[str, np.ndarray]) -> Samples:
        cols = {name: tile.from_numpy(holes[name].astype(np.float32)) for name in ("x", "y", "grade")}
        return cls(x=cols["x"].shared(), y=cols["y"].shared(), grade=cols["grade"].shared(),
                   count=len(holes["grade"]))


class BlockModel:
    def __init__(self, nx: int, ny: int, block_size: float, samples: Samples, stream: sk.Stream) -> None:
        cy, cx = np.mgrid[0:ny, 0:nx].astype(np.float32) * block_size + block_size / 2
        self.n = nx * ny
        self.centres = np.stack([cx.ravel(), cy.ravel()], axis=1)
        self.gx = tile.from_numpy(cx.ravel()).shared()
        self.gy = tile.from_numpy(cy.ravel()).shared()
        self.samples = samples
        self.stream = stream
        self.estimates: dict[float, np.ndarray] = {}

    def estimate(self, power: float) -> np.ndarray:
        smp = self.samples
        out = tile.zeros((self.n,), f32).partition((BT,))
        out, *_ = idw(out, self.gx, self.gy, smp.x, smp.y, smp.grade, power).sync_on(self.stream)
        grades = out.unpartition().to_numpy(self.stream)
        self.estimates[power] = grades
        return grades

    def tonnage_above(self, power: float, cutoff: float, tonnes_per_block: float) -> float:
        return float((self.estimates[power] >= cutoff).sum()) * tonnes_per_block


def idw_reference(centres: np.ndarray, holes: dict[str, np.ndarray], power: float) -> np.ndarray:
    d2 = (centres[:, :1] - holes["x"]) ** 2 + (centres[:, 1:] - holes["y"]) ** 2 + 1.0
    w = d2 ** (-0.5 * power)
    return (w * holes["grade"]).sum(axis=1) / w.sum(axis=1)


def survey(seed: int, count: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    x, y = rng.uniform(0, 200, count), rng.uniform(0, 160, count)
    grade = 0.4 + 2.0 * np.exp(-((x - 120) ** 2 + (y - 60) ** 2) / 2000) + rng.gamma(2.0, 0.1, count)
    return {"x": x, "y": y, "grade": grade}


def main() -> None:
    holes = survey(seed=42, count=48)
    stream = sk.Device.cpu().new_stream()
    model = BlockModel(nx=20, ny=16, block_size=10.0, samples=Samples.from_drillholes(holes), stream=stream)
    for power in (1.0, 2.0, 3.0):
        grades = model.estimate(power)
        np.testing.assert_allclose(grades, idw_reference(model.centres, holes, power), rtol=1e-4)
        print(f"IDW^{power:.0f}: mean {grades.mean():.3f} g/t, "
              f"{model.tonnage_above(power, CUTOFF, 2_700.0) / 1e3:.1f} kt above {CUTOFF} g/t")


if __name__ == "__main__":
    main()
