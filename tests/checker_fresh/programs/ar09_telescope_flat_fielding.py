# fresh-expect: E0133 at line 43
# fresh-note: telescope CCD flat-field correction; the unchecked launch sits in a timing helper that is only called from inside the caller's `with simt.unsafe():`, but unsafe is lexical and does not cover the helper.
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

WIDTH, HEIGHT = 16, 12
PIXELS = WIDTH * HEIGHT


@simt.kernel
@simt.launch_contract(block=64)
def flat_divide(raw: Slice[f32], dark: Slice[f32], flat: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((raw[i] - dark[i]) / max(flat[i], f32(1e-3)))


TIMINGS: dict[str, list[float]] = {}


@contextmanager
def stopwatch(label: str) -> Iterator[None]:
    t0 = time.perf_counter()
    try:
        yield
    finally:
        TIMINGS.setdefault(label, []).append(time.perf_counter() - t0)


def timed_launch(kernel: Any, config: simt.LaunchConfig1D, stream: sk.Stream, *args: Any) -> None:
    with stopwatch(kernel.__name__ if hasattr(kernel, "__name__") else "kernel"):
        kernel.launch_unchecked(config, stream, *args)


def master_flat(rng: np.random.Generator) -> np.ndarray:
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH]
    vignette = 1.0 - 0.3 * ((xx - WIDTH / 2) ** 2 + (yy - HEIGHT / 2) ** 2) / (WIDTH**2 / 4)
    return (vignette * rng.uniform(0.97, 1.03, vignette.shape)).astype(np.float32).ravel()


def calibrate(frames: list[np.ndarray], dark: np.ndarray, flat: np.ndarray, dev: sk.Device) -> list[np.ndarray]:
    stream = dev.new_stream()
    d_dark = sk.to_device(dark, stream)
    d_flat = sk.to_device(flat, stream)
    cfg = simt.LaunchConfig1D.for_len(PIXELS, block=64)
    results = []
    for frame in frames:
        raw = sk.to_device(frame, stream)
        science = sk.zeros(PIXELS, f32, stream)
        with simt.unsafe():  # block size matches the contract; sizes checked above
            timed_launch(flat_divide, cfg, stream, raw, d_dark, d_flat, science)
        results.append(science.to_numpy(stream).reshape(HEIGHT, WIDTH))
    return results


def main() -> None:
    dev = sk.Device.cpu()
    rng = np.random.default_rng(1)
    dark = rng.uniform(98.0, 102.0, PIXELS).astype(np.float32)
    flat = master_flat(rng)
    frames = [(dark + 500.0 * flat + rng.normal(0, 3, PIXELS)).astype(np.float32) for _ in range(3)]
    for k, img in enumerate(calibrate(frames, dark, flat, dev)):
        print(f"frame {k}: sky level {np.median(img):.1f} +- {img.std():.2f}")
    print({label: len(v) for label, v in TIMINGS.items()})


if __name__ == "__main__":
    main()
