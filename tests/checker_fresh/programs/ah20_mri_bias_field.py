# fresh-expect: clean
# fresh-note: an MRI bias-field corrector binds a .shared() bias-field op into a functools.partial once, so every slice's tile launch reads the shared storage without moving it.
"""Bias-field (intensity inhomogeneity) correction of MRI slices, on the tile track.

The coil's smooth bias field is estimated once and uploaded as shared, read-only storage; every slice read
off a generator is divided by it.  The per-slice helper is specialised with `functools.partial` so the
slice loop only passes the slice.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

H, W = 64, 64
TILE = (32, 32)


@tile.kernel
def divide_field(out: Partition[f32], image: Tensor[f32], field: Tensor[f32], floor: f32) -> None:
    f = tile.maximum(tile.load_like(field, out), floor)
    out.store(tile.load_like(image, out) / f)


def bias_field() -> np.ndarray:
    yy, xx = np.mgrid[0:H, 0:W] / np.float32(H)
    return (0.7 + 0.6 * np.exp(-((xx - 0.3) ** 2 + (yy - 0.4) ** 2) / 0.2)).astype(np.float32)


def read_slices(count: int, field: np.ndarray, seed: int = 3) -> Iterator[tuple[int, np.ndarray]]:
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:H, 0:W]
    for z in range(count):
        r = np.hypot(xx - W / 2, yy - H / 2)
        anatomy = np.where(r < 24 - 2 * abs(z - count // 2), 400.0, 40.0) + rng.normal(0.0, 5.0, (H, W))
        yield z, (anatomy * field).astype(np.float32)


def correct_slice(image: np.ndarray, *, field, floor: float, stream: sk.Stream) -> np.ndarray:
    out, _image, _field, _ = divide_field(
        tile.zeros((H, W), f32).partition(TILE), tile.from_numpy(image), field, floor
    ).sync_on(stream)
    return out.unpartition().to_numpy(stream)


def coefficient_of_variation(image: np.ndarray, mask: np.ndarray) -> float:
    values = image[mask]
    return float(values.std() / values.mean())


def main() -> None:
    stream = sk.Device.default().new_stream()
    field_host = bias_field()
    field = tile.from_numpy(field_host).shared()
    correct = functools.partial(correct_slice, field=field, floor=0.05, stream=stream)
    report = []
    for z, image in read_slices(6, field_host):
        corrected = correct(image)
        np.testing.assert_allclose(corrected, image / np.maximum(field_host, 0.05), rtol=1e-5)
        tissue = corrected > 200
        report.append((z, coefficient_of_variation(image, tissue), coefficient_of_variation(corrected, tissue)))
    for z, before, after in report:
        print(f"slice {z}: tissue CV {before:.3f} -> {after:.3f}")


if __name__ == "__main__":
    main()
