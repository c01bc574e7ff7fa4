# fresh-expect: E0133 at line 54
# fresh-note: Azimuthally integrates an XRD detector frame with an unchecked atomic-binning launch; the with simt.unsafe() block sits in integrate(), but unsafe is lexical, so launch_unchecked inside the helper _integrate_fixed is outside any unsafe block.
"""Powder X-ray diffraction: azimuthal integration of an area-detector frame into a 1-D pattern.

Every pixel carries its scattering angle 2-theta (from the calibrated geometry) and its counts;
the kernel drops each pixel's counts into a 2-theta bin with an atomic add. The detector geometry
never changes between frames, so the launch skips `prepare` and uses a fixed configuration.
"""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, Slice, thread

WAVELENGTH_A = 1.5406          # Cu K-alpha1
DET = 48                       # 48 x 48 pixel detector
N_BINS = 160
TTH_MIN, TTH_MAX = 20.0, 80.0


@simt.kernel
def bin_pixels(two_theta: Slice[f32], counts: Slice[f32], hist: AtomicSlice[f32], hits: AtomicSlice[i32],
               tth_min: f32, inv_step: f32) -> None:
    i = thread.index_1d().get()
    if i >= len(two_theta):
        return
    b = i32((two_theta[i] - tth_min) * inv_step)
    if b >= 0 and b < len(hist):
        hist.fetch_add(b, counts[i])
        hits.fetch_add(b, i32(1))


def detector_geometry(distance_mm: float = 60.0, pixel_mm: float = 1.2) -> np.ndarray:
    yy, xx = np.mgrid[0:DET, 0:DET].astype(np.float64)
    x = (xx + 0.5) * pixel_mm + 40.0
    y = (yy - DET / 2 + 0.5) * pixel_mm
    return np.degrees(np.arctan2(np.hypot(x, y), distance_mm)).ravel().astype(np.float32)


def synthetic_frame(tth: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    d_spacings = (3.1355, 1.9201, 1.6374, 1.3577)      # silicon 111, 220, 311, 400
    frame = np.full(tth.shape, 20.0)
    for k, d in enumerate(d_spacings):
        center = np.degrees(2 * np.arcsin(WAVELENGTH_A / (2 * d)))
        frame += (900.0 / (k + 1)) * np.exp(-0.5 * ((tth - center) / 0.25) ** 2)
    return rng.poisson(frame).astype(np.float32)


def _integrate_fixed(config: simt.LaunchConfig1D, stream: sk.Stream, tth: sk.DeviceBuffer, counts: sk.DeviceBuffer,
                     hist: sk.DeviceBuffer, hits: sk.DeviceBuffer) -> None:
    inv_step = N_BINS / (TTH_MAX - TTH_MIN)
    bin_pixels.launch_unchecked(config, stream, tth, counts, hist, hits, TTH_MIN, inv_step)


def integrate(stream: sk.Stream, tth: sk.DeviceBuffer, frame: np.ndarray) -> np.ndarray:
    counts = sk.to_device(frame, stream)
    hist = sk.zeros(N_BINS, f32, stream)
    hits = sk.zeros(N_BINS, i32, stream)
    config = simt.LaunchConfig1D(grid=(DET * DET + 127) // 128, block=128)
    with simt.unsafe():        # fixed geometry: every pixel index is checked in the kernel
        _integrate_fixed(config, stream, tth, counts, hist, hits)
    n = hits.to_numpy(stream)
    return np.where(n > 0, hist.to_numpy(stream) / np.maximum(n, 1), 0.0)


def find_reflections(pattern: np.ndarray, min_height: float = 120.0) -> list[float]:
    centers = TTH_MIN + (np.arange(N_BINS) + 0.5) * (TTH_MAX - TTH_MIN) / N_BINS
    is_peak = (pattern[1:-1] > pattern[:-2]) & (pattern[1:-1] >= pattern[2:]) & (pattern[1:-1] > min_height)
    return [float(c) for c in centers[1:-1][is_peak]]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    geometry = detector_geometry()
    tth = sk.to_device(geometry, stream)
    rng = np.random.default_rng(111)
    for frame_no in range(2):
        pattern = integrate(stream, tth, synthetic_frame(geometry, rng))
        peaks = find_reflections(pattern)
        d = [WAVELENGTH_A / (2 * np.sin(np.radians(p / 2))) for p in peaks]
        print(f"frame {frame_no}: " + ", ".join(f"2th={p:.2f} d={x:.3f}A" for p, x in zip(peaks, d)))


if __name__ == "__main__":
    main()
