# fresh-expect: clean
# fresh-note: the overscan arm writes the two split_at halves of one frame buffer as two outputs, and every arm of the match launches its kernel with that kernel's own prepared launch.
"""Reducing frames from a CCD read out through two amplifiers: per-amplifier overscan, cosmic-ray clipping, flat.

The top and bottom halves of each frame have different bias levels, measured from their overscan columns on the
host; one kernel corrects both halves into the two halves of an output frame.  A match on the step name picks the
kernel for each reduction step; the host then measures the photometry of one star.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SIDE = 64
PIXELS = SIDE * SIDE
HALF = PIXELS // 2
STEPS = ("overscan", "cosmics", "flat")


@simt.kernel
@simt.launch_contract(block=256)
def overscan_correct(raw: Slice[f32], bias_lo: f32, bias_hi: f32, lo: DisjointSlice[f32],
                     hi: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    half = len(lo)
    if (a := lo.get_mut(idx)) is not None:
        a.set(raw[i] - bias_lo)
    j = thread.index_1d()
    if (b := hi.get_mut(j)) is not None:
        b.set(raw[half + i] - bias_hi)


@simt.kernel
@simt.launch_contract(block=128)
def clip_cosmics(frame: Slice[f32], out: DisjointSlice[f32], ceiling: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(min(frame[i], ceiling))


@simt.kernel
@simt.launch_contract(block=128)
def divide_flat(frame: Slice[f32], flat: Slice[f32], out: DisjointSlice[f32], floor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(frame[i] / max(flat[i], floor))


def raw_frame(rng: np.random.Generator, flat: np.ndarray) -> tuple[np.ndarray, float, float]:
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    star = 8000.0 * np.exp(-((xx - 20) ** 2 + (yy - 45) ** 2) / 5.0)
    frame = rng.poisson((120.0 + star) * flat).astype(np.float32)
    frame.reshape(-1)[:HALF] += 310.0
    frame.reshape(-1)[HALF:] += 295.0
    frame[rng.integers(0, SIDE, 5), rng.integers(0, SIDE, 5)] = 60000.0
    return frame, 310.0 + rng.normal(0, 0.2), 295.0 + rng.normal(0, 0.2)


def reduce_frame(dev: sk.Device, stream: sk.Stream, raw: np.ndarray, bias: tuple[float, float],
                 flat: sk.DeviceBuffer) -> np.ndarray:
    os_prep = overscan_correct.prepare(simt.LaunchConfig1D.for_len(HALF, block=256), dev)
    cr_prep = clip_cosmics.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=128), dev)
    flat_prep = divide_flat.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=128), dev)
    cur = sk.to_device(raw.ravel(), stream)
    nxt = sk.zeros(PIXELS, f32, stream)
    for step in STEPS:
        match step:
            case "overscan":
                lo, hi = nxt.split_at(HALF)
                overscan_correct.launch(os_prep, stream, cur, bias[0], bias[1], lo, hi)
            case "cosmics":
                clip_cosmics.launch(cr_prep, stream, cur, nxt, 20000.0)
            case "flat":
                divide_flat.launch(flat_prep, stream, cur, flat, nxt, 1e-3)
            case _:
                raise ValueError(f"unknown reduction step {step!r}")
        cur, nxt = nxt, cur
    return cur.to_numpy(stream).reshape(SIDE, SIDE)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(77)
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    flat_np = (1.0 - 0.2 * (xx / SIDE)).astype(np.float32)
    flat = sk.to_device(flat_np.ravel(), stream)
    raw, b_lo, b_hi = raw_frame(rng, flat_np)
    reduced = reduce_frame(dev, stream, raw, (b_lo, b_hi), flat)
    sky = float(np.median(reduced))
    aperture = reduced[40:51, 15:26] - sky
    print(f"sky {sky:.1f} e-, top/bottom bias {b_lo:.1f}/{b_hi:.1f} ADU")
    print(f"star flux in 11x11 aperture: {aperture.sum():.0f} e-, max pixel {reduced.max():.0f}")


if __name__ == "__main__":
    main()
