# fresh-expect: clean
# collision voxel grid: autotuned tile kernel evaluating the signed distance to a set of spheres at every voxel
from __future__ import annotations

from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BLOCK = 128
SPHERES = 8


@tile.autotune(configs=[tile.Config(BLOCK=128), tile.Config(BLOCK=512)], key=["px"], warmup=1, rep=2)
@tile.kernel
def sdf(dist: Annotated[Partition[f32], tile.Dims(BLOCK)], px: Tensor[f32], py: Tensor[f32], pz: Tensor[f32],
        cx: Tensor[f32], cy: Tensor[f32], cz: Tensor[f32], radius: Tensor[f32]) -> None:
    x = tile.reshape(tile.load_like(px, dist), (BLOCK, 1))
    y = tile.reshape(tile.load_like(py, dist), (BLOCK, 1))
    z = tile.reshape(tile.load_like(pz, dist), (BLOCK, 1))
    sx = tile.reshape(cx.load((0,), (SPHERES,)), (1, SPHERES))
    sy = tile.reshape(cy.load((0,), (SPHERES,)), (1, SPHERES))
    sz = tile.reshape(cz.load((0,), (SPHERES,)), (1, SPHERES))
    r = tile.reshape(radius.load((0,), (SPHERES,)), (1, SPHERES))
    d = tile.sqrt((x - sx) * (x - sx) + (y - sy) * (y - sy) + (z - sz) * (z - sz)) - r
    dist.store(tile.min(d, axis=1))


def voxel_centers(res: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    axis = (np.arange(res, dtype=np.float32) + 0.5) / res * 4.0 - 2.0
    gx, gy, gz = np.meshgrid(axis, axis, axis, indexing="ij")
    return gx.ravel(), gy.ravel(), gz.ravel()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(13)
    spheres = {
        "cx": rng.uniform(-1.5, 1.5, SPHERES), "cy": rng.uniform(-1.5, 1.5, SPHERES),
        "cz": rng.uniform(-1.5, 1.5, SPHERES), "radius": rng.uniform(0.2, 0.6, SPHERES),
    }
    sphere_ops = [tile.from_numpy(v.astype(np.float32)) for v in spheres.values()]
    res = 16
    points = [tile.from_numpy(a) for a in voxel_centers(res)]
    dist, *_ = sdf(tile.zeros((res**3,), f32), *points, *sphere_ops).sync_on(stream)

    d = dist.to_numpy(stream)
    gx, gy, gz = voxel_centers(res)
    ref = np.min(
        np.sqrt((gx[:, None] - spheres["cx"]) ** 2 + (gy[:, None] - spheres["cy"]) ** 2
                + (gz[:, None] - spheres["cz"]) ** 2) - spheres["radius"], axis=1)
    np.testing.assert_allclose(d, ref, atol=1e-4)
    occupied = int((d <= 0).sum())
    print(f"{occupied} of {res**3} voxels inside an obstacle; closest free voxel clearance {d[d > 0].min():.3f}")


if __name__ == "__main__":
    main()
