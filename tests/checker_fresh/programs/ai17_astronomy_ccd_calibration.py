# fresh-expect: E0308 at line 73
# fresh-note: the "flat" arm of the calibration match launches divide_flat with the launch prepared for subtract_frame.
"""CCD frame calibration for a night of telescope exposures: bias, dark and flat-field correction.

Each science frame goes through the calibration steps in order (a match on the step name picks the kernel); the
calibrated frames are then median-combined on the host and a star's signal-to-noise is measured.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SIDE = 64
PIXELS = SIDE * SIDE
EXPOSURE = 120.0
DARK_EXPOSURE = 300.0
STEPS = ("bias", "dark", "flat")


@simt.kernel
@simt.launch_contract(block=256)
def subtract_frame(raw: Slice[f32], master: Slice[f32], out: DisjointSlice[f32], scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] - scale * master[i])


@simt.kernel
@simt.launch_contract(block=128)
def divide_flat(raw: Slice[f32], flat: Slice[f32], out: DisjointSlice[f32], floor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] / max(flat[i], floor))


def make_masters(rng: np.random.Generator) -> dict[str, np.ndarray]:
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    vignette = 1.0 - 0.3 * ((xx - SIDE / 2) ** 2 + (yy - SIDE / 2) ** 2) / (SIDE / 2) ** 2
    return {
        "bias": (400.0 + rng.normal(0.0, 2.0, (SIDE, SIDE))).astype(np.float32),
        "dark": (rng.gamma(2.0, 5.0, (SIDE, SIDE))).astype(np.float32),
        "flat": vignette.astype(np.float32),
    }


def science_frame(rng: np.random.Generator, masters: dict[str, np.ndarray]) -> np.ndarray:
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    star = 5000.0 * np.exp(-((xx - 40) ** 2 + (yy - 22) ** 2) / 6.0)
    sky = 150.0 + star
    signal = rng.poisson(sky * masters["flat"]).astype(np.float32)
    return signal + masters["bias"] + masters["dark"] * (EXPOSURE / DARK_EXPOSURE)


def calibrate(dev: sk.Device, stream: sk.Stream, frame: np.ndarray, masters: dict[str, sk.DeviceBuffer]) -> np.ndarray:
    sub_prep = subtract_frame.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=256), dev)
    flat_prep = divide_flat.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=128), dev)
    cur = sk.to_device(frame.ravel(), stream)
    nxt = sk.zeros(PIXELS, f32, stream)
    for step in STEPS:
        match step:
            case "bias":
                subtract_frame.launch(sub_prep, stream, cur, masters["bias"], nxt, 1.0)
            case "dark":
                subtract_frame.launch(sub_prep, stream, cur, masters["dark"], nxt, EXPOSURE / DARK_EXPOSURE)
            case "flat":
                divide_flat.launch(sub_prep, stream, cur, masters["flat"], nxt, 1e-3)
            case _:
                raise ValueError(f"unknown calibration step {step!r}")
        cur, nxt = nxt, cur
    return cur.to_numpy(stream).reshape(SIDE, SIDE)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(2024)
    masters_np = make_masters(rng)
    masters = {name: sk.to_device(m.ravel(), stream) for name, m in masters_np.items()}
    frames = [calibrate(dev, stream, science_frame(rng, masters_np), masters) for _ in range(3)]
    stack = np.median(np.stack(frames), axis=0)
    background = float(np.median(stack))
    noise = float(np.std(stack[:16, :16]))
    peak = float(stack[22, 40] - background)
    print(f"stacked {len(frames)} frames: sky {background:.1f} ADU, noise {noise:.2f} ADU")
    print(f"star peak {peak:.1f} ADU above sky, S/N {peak / noise:.1f}")


if __name__ == "__main__":
    main()
