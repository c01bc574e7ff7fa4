# fresh-expect: clean
# fresh-note: a multispectral scene calibrator gives each band its own output from a dict comprehension and queues one launch_async per band, joined with sk.zip and synchronized once.
"""Radiometric calibration of a multispectral satellite tile, then NDVI on the host.

Each band's digital numbers are converted to reflectance with that band's gain and offset.  The band
launches are queued asynchronously and run together; NDVI is computed from the red and near-infrared
reflectances and compared with a numpy reference.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BANDS = ("blue", "green", "red", "nir")
BLOCK = 256


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(dn) >= len(reflectance)",))
def calibrate(dn: Slice[f32], reflectance: DisjointSlice[f32], gain: f32, offset: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := reflectance.get_mut(idx)) is not None:
        r = dn[i] * gain + offset
        out.set(max(r, f32(0.0)))


class Coefficients(NamedTuple):
    gain: float
    offset: float


SENSOR: dict[str, Coefficients] = {
    "blue": Coefficients(2.0e-5, -0.10),
    "green": Coefficients(2.0e-5, -0.10),
    "red": Coefficients(2.1e-5, -0.11),
    "nir": Coefficients(2.4e-5, -0.12),
}


class Scene:
    def __init__(self, rows: int, cols: int, device: sk.Device, stream: sk.Stream) -> None:
        self.shape = (rows, cols)
        self.stream = stream
        pixels = rows * cols
        self.prepared = calibrate.prepare(simt.LaunchConfig1D.for_len(pixels, block=BLOCK), device)
        self.reflectance = {band: sk.zeros(pixels, f32, stream) for band in BANDS}

    def queue(self, raw: dict[str, sk.DeviceBuffer]) -> dict[str, sk.DeviceOp]:
        return {
            band: calibrate.launch_async(self.prepared, raw[band], self.reflectance[band], *SENSOR[band])
            for band in BANDS
        }

    def band(self, name: str) -> np.ndarray:
        return self.reflectance[name].to_numpy(self.stream).reshape(self.shape)


def numpy_reflectance(dn: np.ndarray, band: str) -> np.ndarray:
    c = SENSOR[band]
    return np.maximum(dn * np.float32(c.gain) + np.float32(c.offset), 0).astype(np.float32)


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(21)
    rows, cols = 40, 60
    digital = {band: rng.integers(5_000, 40_000, (rows, cols)).astype(np.float32) for band in BANDS}
    scene = Scene(rows, cols, device, stream)
    raw = {band: sk.to_device(digital[band].ravel(), stream) for band in BANDS}
    pending = scene.queue(raw)
    sk.zip(*pending.values()).sync_on(stream)
    for band in BANDS:
        np.testing.assert_allclose(scene.band(band), numpy_reflectance(digital[band], band), rtol=1e-5, atol=1e-6)
    red, nir = scene.band("red"), scene.band("nir")
    ndvi = (nir - red) / np.maximum(nir + red, 1e-6)
    print(f"calibrated {len(BANDS)} bands of {rows}x{cols}; NDVI mean {ndvi.mean():.3f}, max {ndvi.max():.3f}")


if __name__ == "__main__":
    main()
