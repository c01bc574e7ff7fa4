# fresh-expect: E0308 at line 91
# fresh-note: SIMT HDR tone-mapping pipeline whose LaunchCache keys prepared launches by (length, block) only, so the tonemap pass is handed the launch cached for the luminance kernel with the same shape (E0308).
"""HDR tone mapping in the SIMT track: luminance extraction, a log-luminance histogram built with atomics,
auto-exposure from the histogram's median on the host, then a Reinhard curve into an 8-bit-range image."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

BINS = 32


@simt.kernel
@simt.launch_contract(block=64, requires=("len(rgb) >= len(lum) * 3",))
def luminance(rgb: Slice[f32], lum: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := lum.get_mut(idx)) is not None:
        o.set(0.2126 * rgb[3 * i] + 0.7152 * rgb[3 * i + 1] + 0.0722 * rgb[3 * i + 2])


@simt.kernel
@simt.launch_contract(block=128)
def histogram(lum: Slice[f32], bins: AtomicSlice[u32], lo: f32, scale: f32) -> None:
    i = thread.index_1d().get()
    if i < len(lum):
        b = u32(min(max((math.log2(lum[i] + 1e-4) - lo) * scale, 0.0), 31.0))
        bins.fetch_add(b, u32(1))


@simt.kernel
@simt.launch_contract(block=64)
def tonemap(lum: Slice[f32], out: DisjointSlice[f32], exposure: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = lum[i] * exposure
        o.set(255.0 * v / (1.0 + v))


@dataclass
class LaunchCache:
    device: sk.Device
    entries: dict[tuple[int, int], object] = field(default_factory=dict)

    def get(self, kernel, n: int, block: int):
        key = (n, block)
        if key not in self.entries:
            self.entries[key] = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=block), self.device)
        return self.entries[key]


@dataclass(frozen=True)
class ExposureSettings:
    log_lo: float = -8.0
    log_hi: float = 8.0
    key_value: float = 0.18

    @property
    def scale(self) -> float:
        return BINS / (self.log_hi - self.log_lo)

    def exposure_from(self, counts: np.ndarray) -> float:
        half = counts.sum() / 2
        for b, running in enumerate(np.cumsum(counts)):
            if running >= half:
                break
        else:
            b = BINS // 2
        median_log = self.log_lo + (b + 0.5) / self.scale
        return self.key_value / 2.0 ** median_log


def tone_map(hdr: np.ndarray, settings: ExposureSettings, cache: LaunchCache, stream: sk.Stream) -> np.ndarray:
    n = hdr.shape[0] * hdr.shape[1]
    rgb = sk.to_device(hdr.reshape(-1).astype(np.float32), stream)
    lum = sk.zeros(n, f32, stream)
    bins = sk.zeros(BINS, u32, stream)
    ldr = sk.zeros(n, f32, stream)
    luminance.launch(cache.get(luminance, n, 64), stream, rgb, lum)
    histogram.launch(cache.get(histogram, n, 128), stream, lum, bins, settings.log_lo, settings.scale)
    exposure = settings.exposure_from(bins.to_numpy(stream))
    tonemap.launch(cache.get(tonemap, n, 64), stream, lum, ldr, exposure)
    return ldr.to_numpy(stream).reshape(hdr.shape[:2])


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(7)
    hdr = (rng.random((16, 20, 3)) ** 4 * 50.0).astype(np.float32)
    cache = LaunchCache(device)
    image = tone_map(hdr, ExposureSettings(), cache, stream)
    assert image.min() >= 0.0 and image.max() < 255.0
    print(f"tone mapped {image.shape}, mean {image.mean():.1f}, {len(cache.entries)} cached launches")


if __name__ == "__main__":
    main()
