# fresh-expect: E0505 at line 76
# fresh-note: render_slice starts the HU windowing with launch_async into `windowed` and, inside the try whose finally syncs that op, hands `windowed` to the display_gamma tile launch.
"""Rendering CT slices for a radiology viewer: rescale to Hounsfield units, apply a window, then display gamma.

The stored 16-bit values are rescaled with the DICOM slope/intercept and mapped through a window (center/width,
e.g. the lung or the soft-tissue window) by a SIMT kernel; a tile kernel applies the display gamma.  Stage timings
are collected with a small context manager.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i16
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SIDE = 64
TILE = 256
SLOPE, INTERCEPT = 1.0, -1024.0
WINDOWS = {"lung": (-600.0, 1500.0), "soft tissue": (40.0, 400.0)}


@simt.kernel
@simt.launch_contract(block=256)
def hu_window(raw: Slice[i16], out: DisjointSlice[f32], slope: f32, intercept: f32, center: f32,
              width: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        hu = f32(raw[i]) * slope + intercept
        level = (hu - (center - width * 0.5)) / width
        o.set(min(max(level, f32(0.0)), f32(1.0)))


@tile.kernel
def display_gamma(shown: Partition[f32], img: Tensor[f32], gamma: f32) -> None:
    x = tile.maximum(tile.load_like(img, shown), 1e-6)
    shown.store(tile.exp(tile.log(x) * gamma))


@contextmanager
def timed(label: str, log: list[tuple[str, float]]) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        log.append((label, time.perf_counter() - start))


def phantom(rng: np.random.Generator) -> np.ndarray:
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    r = np.hypot(xx - SIDE / 2, yy - SIDE / 2)
    hu = np.where(r < 28, 40.0, -1000.0)
    hu = np.where((r < 20) & (np.abs(xx - SIDE / 2) > 4), -800.0, hu)
    hu = np.where((np.abs(xx - SIDE / 2) < 3) & (np.abs(yy - SIDE / 2) < 3), 700.0, hu)
    return (hu - INTERCEPT + rng.normal(0, 8, hu.shape)).astype(np.int16)


def render_slice(dev: sk.Device, stream: sk.Stream, raw: np.ndarray, window: tuple[float, float],
                 log: list[tuple[str, float]]) -> np.ndarray:
    n = raw.size
    raw_buf = sk.to_device(raw.ravel(), stream)
    windowed = sk.zeros(n, f32, stream)
    prep = hu_window.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    center, width = window
    pending = hu_window.launch_async(prep, raw_buf, windowed, SLOPE, INTERCEPT, center, width)
    try:
        with timed("gamma", log):
            shown, windowed, _ = display_gamma(tile.zeros((n,), f32).partition((TILE,)), windowed, 0.8).sync_on(stream)
    finally:
        pending.sync_on(stream)
    return shown.unpartition().to_numpy(stream).reshape(SIDE, SIDE)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    raw = phantom(np.random.default_rng(12))
    log: list[tuple[str, float]] = []
    for name, window in WINDOWS.items():
        img = render_slice(dev, stream, raw, window, log)
        saturated = float(np.mean((img <= 1e-3) | (img >= 0.999)))
        print(f"{name:11s} window: mean level {img.mean():.3f}, {saturated:.0%} of pixels clipped")
    total_ms = sum(t for _, t in log) * 1e3
    print(f"{len(log)} gamma passes in {total_ms:.1f} ms")


if __name__ == "__main__":
    main()
