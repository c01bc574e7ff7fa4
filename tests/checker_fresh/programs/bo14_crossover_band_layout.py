# fresh-expect: clean
# fresh-note: `BandLayout.offset` strides by the padded region length, so the band views are disjoint and the mid/high split writes two separate ranges.
"""A three-band crossover built as a two-stage tree of moving-average splits.  All bands live in one device
allocation, one region per band, each padded to whole launch blocks so later per-band kernels can run
without tail handling."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def split_band(x: Slice[f32], low: DisjointSlice[f32], high: DisjointSlice[f32], width: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(x):
        acc = f32(0.0)
        for k in range(width):
            if i >= k:
                acc += x[i - k]
        avg = acc / f32(width)
        if (lo := low.get_mut(idx)) is not None:
            lo.set(avg)
        idx2 = thread.index_1d()
        if (hi := high.get_mut(idx2)) is not None:
            hi.set(x[i] - avg)


@dataclass(frozen=True)
class BandLayout:
    frames: int
    bands: int

    @property
    def padded(self) -> int:
        return -(-self.frames // BLOCK) * BLOCK  # whole launch blocks

    @property
    def total(self) -> int:
        return self.padded * self.bands

    def offset(self, band: int) -> int:
        return band * self.padded

    def region(self, buf: sk.DeviceBuffer, band: int) -> sk.DeviceBuffer:
        start = self.offset(band)
        return buf.view(start, start + self.padded)

    def host_band(self, host: np.ndarray, band: int) -> np.ndarray:
        start = self.offset(band)
        return host[start : start + self.frames]


class Crossover:
    WIDTHS = (16, 4)  # moving-average lengths of the low and the mid split

    def __init__(self, dev: sk.Device, frames: int) -> None:
        self.stream = dev.new_stream()
        self.layout = BandLayout(frames, bands=3)
        self.prep = split_band.prepare(simt.LaunchConfig1D.for_len(self.layout.padded, block=BLOCK), dev)
        self.bands = sk.zeros(self.layout.total, f32, self.stream)
        self.rest = sk.zeros(self.layout.padded, f32, self.stream)

    def process(self, block: np.ndarray) -> list[np.ndarray]:
        x = sk.to_device(block.astype(np.float32), self.stream)
        region = self.layout.region
        split_band.launch(self.prep, self.stream, x, region(self.bands, 0), self.rest, self.WIDTHS[0])
        split_band.launch(self.prep, self.stream, self.rest, region(self.bands, 1), region(self.bands, 2), self.WIDTHS[1])
        host = self.bands.to_numpy(self.stream)
        return [self.layout.host_band(host, b) for b in range(self.layout.bands)]


def moving_average(x: np.ndarray, width: int) -> np.ndarray:
    return (np.convolve(x, np.ones(width, np.float32))[: len(x)] / np.float32(width)).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    frames = 1000
    xo = Crossover(dev, frames)
    rng = np.random.default_rng(3)
    block = rng.standard_normal(frames).astype(np.float32)
    low, mid, high = xo.process(block)
    want_low = moving_average(block, 16)
    rest = block - want_low
    want_mid = moving_average(rest, 4)
    np.testing.assert_allclose(low, want_low, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mid, want_mid, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(low + mid + high, block, rtol=1e-4, atol=1e-5)
    energy = {name: float(np.mean(b**2)) for name, b in zip(("low", "mid", "high"), (low, mid, high))}
    print("crossover energy:", ", ".join(f"{k}={v:.3f}" for k, v in energy.items()))


if __name__ == "__main__":
    main()
