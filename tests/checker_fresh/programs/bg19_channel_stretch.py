# fresh-expect: E0382 at line 51
# fresh-note: Per-channel contrast stretch over a dict of tile tensors: stretch_all() moves each plane into its launch and never stores the handed-back tensor into the dict, so main's luma preview reads a moved tensor.
"""Per-channel contrast stretch of an RGB image held as a dict of tile tensors, then a luma preview."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

H, W = 32, 64
TILE = (8, 32)
LUMA = {"r": 0.299, "g": 0.587, "b": 0.114}


@tile.kernel
def stretch(out: Partition[f32], plane: Tensor[f32], lo: f32, scale: f32) -> None:
    t = tile.load_like(plane, out)
    out.store(tile.minimum(tile.maximum((t - lo) * scale, 0.0), 1.0))


def percentile_bounds(planes: dict[str, Tensor], stream: sk.Stream) -> dict[str, tuple[float, float]]:
    bounds = {}
    for name, plane in planes.items():
        host = plane.to_numpy(stream)
        bounds[name] = (float(np.percentile(host, 2)), float(np.percentile(host, 98)))
    return bounds


def stretch_all(planes: dict[str, Tensor], stream: sk.Stream) -> dict[str, np.ndarray]:
    bounds = percentile_bounds(planes, stream)
    results = {}
    for name, plane in planes.items():
        lo, hi = bounds[name]
        out = tile.zeros((H, W), f32).partition(TILE)
        out, plane, _, _ = stretch(out, plane, lo, 1.0 / max(hi - lo, 1e-6)).sync_on(stream)
        results[name] = out.unpartition().to_numpy(stream)
    return results


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(14)
    image = (0.35 + 0.2 * rng.random((3, H, W))).astype(np.float32)  # washed-out input
    planes = {c: tile.from_numpy(image[k]).sync_on(stream) for k, c in enumerate("rgb")}
    stretched = stretch_all(planes, stream)
    before = sum(w * planes[c].to_numpy(stream) for c, w in LUMA.items())
    after = sum(w * stretched[c] for c, w in LUMA.items())
    for k, c in enumerate("rgb"):
        lo, hi = np.percentile(image[k], 2), np.percentile(image[k], 98)
        want = np.clip((image[k] - lo) / (hi - lo), 0.0, 1.0)
        np.testing.assert_allclose(stretched[c], want, rtol=1e-4, atol=1e-4)
    print(f"luma range {np.ptp(before):.3f} -> {np.ptp(after):.3f}")


if __name__ == "__main__":
    main()
