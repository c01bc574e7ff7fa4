# fresh-expect: clean
# fresh-note: correct_slice starts the bias-field division with launch_async into `corrected` and syncs that op before the try block hands `corrected` to the normalize_intensity tile launch.
"""Preparing MRI slices for a segmentation model: bias-field correction, then intensity normalisation.

A smooth multiplicative bias field (estimated elsewhere, here synthesised) is divided out by a SIMT kernel; a tile
kernel then rescales the slice to zero mean and unit variance inside the head mask.  Stage timings are collected
with a small context manager.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SIDE = 64
TILE = 256


@simt.kernel
@simt.launch_contract(block=256)
def divide_bias(raw: Slice[f32], bias: Slice[f32], out: DisjointSlice[f32], floor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] / max(bias[i], floor))


@tile.kernel
def normalize_intensity(normed: Partition[f32], img: Tensor[f32], mean: f32, inv_std: f32) -> None:
    normed.store((tile.load_like(img, normed) - mean) * inv_std)


@contextmanager
def timed(label: str, log: list[tuple[str, float]]) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        log.append((label, time.perf_counter() - start))


def synthetic_slice(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[0:SIDE, 0:SIDE] / SIDE
    head = np.hypot(xx - 0.5, yy - 0.5) < 0.42
    tissue = np.where(head, 600.0 + 200.0 * (np.hypot(xx - 0.5, yy - 0.5) < 0.25), 5.0)
    bias = (0.7 + 0.6 * xx * yy + 0.2 * yy).astype(np.float32)
    raw = (tissue * bias + rng.normal(0, 10, tissue.shape)).astype(np.float32)
    return raw, bias, head


def correct_slice(dev: sk.Device, stream: sk.Stream, raw: np.ndarray, bias: np.ndarray, head: np.ndarray,
                  log: list[tuple[str, float]]) -> np.ndarray:
    n = raw.size
    raw_buf = sk.to_device(raw.ravel(), stream)
    bias_buf = sk.to_device(bias.ravel(), stream)
    corrected = sk.zeros(n, f32, stream)
    prep = divide_bias.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    pending = divide_bias.launch_async(prep, raw_buf, bias_buf, corrected, 1e-3)
    pending.sync_on(stream)
    inside = corrected.to_numpy(stream)[head.ravel()]
    mean, std = float(inside.mean()), float(inside.std())
    try:
        with timed("normalize", log):
            normed, corrected, _, _ = normalize_intensity(
                tile.zeros((n,), f32).partition((TILE,)), corrected, mean, 1.0 / std).sync_on(stream)
    finally:
        log.append(("slice", 0.0))
    return normed.unpartition().to_numpy(stream).reshape(SIDE, SIDE)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(31)
    log: list[tuple[str, float]] = []
    for k in range(3):
        raw, bias, head = synthetic_slice(rng)
        img = correct_slice(dev, stream, raw, bias, head, log)
        inside = img[head]
        print(f"slice {k}: mean {inside.mean():+.3f}, std {inside.std():.3f}, "
              f"raw left/right ratio {raw[:, :SIDE // 2][head[:, :SIDE // 2]].mean() / raw[:, SIDE // 2:][head[:, SIDE // 2:]].mean():.2f}")
    stage_ms = sum(t for label, t in log if label == "normalize") * 1e3
    print(f"{sum(1 for label, _ in log if label == 'slice')} slices normalised in {stage_ms:.1f} ms")


if __name__ == "__main__":
    main()
