# fresh-expect: clean
# fresh-note: a seismic trace filter cascade ping-pongs between two distinct scratch buffers taken from itertools.cycle over a list comprehension, so no stage reads the buffer it writes.
"""Band-pass cascade for a single seismic trace.

A cascade of 3-tap FIR stages (detrend, low-pass, de-spike) runs on the device; stage k reads the previous
stage's output and writes into one of two scratch traces that alternate.  The filtered trace is compared
with a numpy reference and its dominant period is reported.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DT = 0.004  # 250 Hz geophone
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(trace) >= len(filtered)",))
def fir_stage(trace: Slice[f32], filtered: DisjointSlice[f32], c0: f32, c1: f32, c2: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := filtered.get_mut(idx)) is not None:
        acc = c0 * trace[i]
        if i >= 1:
            acc += c1 * trace[i - 1]
        if i >= 2:
            acc += c2 * trace[i - 2]
        out.set(acc)


@dataclass(frozen=True)
class Stage:
    label: str
    coeffs: tuple[float, float, float]


class Cascade:
    """A fixed chain of stages over traces of one length."""

    def __init__(self, stages: list[Stage], samples: int, device: sk.Device, stream: sk.Stream) -> None:
        self.stages = stages
        self.stream = stream
        self.prepared = fir_stage.prepare(simt.LaunchConfig1D.for_len(samples, block=BLOCK), device)
        self.scratch = [sk.zeros(samples, f32, stream) for _ in range(2)]

    def run(self, trace: sk.DeviceBuffer) -> sk.DeviceBuffer:
        current = trace
        slots = itertools.cycle(self.scratch)
        for stage in self.stages:
            target = next(slots)
            fir_stage.launch(self.prepared, self.stream, current, target, *stage.coeffs)
            current = target
        return current


def numpy_cascade(trace: np.ndarray, stages: list[Stage]) -> np.ndarray:
    out = trace.astype(np.float32)
    for stage in stages:
        c0, c1, c2 = (np.float32(c) for c in stage.coeffs)
        padded = np.concatenate([np.zeros(2, np.float32), out])
        out = (c0 * padded[2:] + c1 * padded[1:-1] + c2 * padded[:-2]).astype(np.float32)
    return out


def synthetic_trace(seconds: float, seed: int = 11) -> np.ndarray:
    t = np.arange(0.0, seconds, DT)
    rng = np.random.default_rng(seed)
    ricker = (1 - 2 * (np.pi * 12 * (t - 1.0)) ** 2) * np.exp(-((np.pi * 12 * (t - 1.0)) ** 2))
    return (ricker + 0.02 * t + 0.03 * rng.standard_normal(t.size)).astype(np.float32)


def dominant_period(trace: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(trace - trace.mean()))
    freqs = np.fft.rfftfreq(trace.size, DT)
    return 1.0 / float(freqs[1:][np.argmax(spectrum[1:])])


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    raw = synthetic_trace(2.0)
    stages = [
        Stage("detrend", (1.0, -1.0, 0.0)),
        Stage("low-pass", (0.25, 0.5, 0.25)),
        Stage("de-spike", (0.6, 0.3, 0.1)),
    ]
    cascade = Cascade(stages, raw.size, device, stream)
    filtered = cascade.run(sk.to_device(raw, stream))
    got = filtered.to_numpy(stream)
    np.testing.assert_allclose(got, numpy_cascade(raw, stages), rtol=1e-5, atol=1e-6)
    print(f"{raw.size} samples through {len(stages)} stages, dominant period {dominant_period(got):.3f} s")


if __name__ == "__main__":
    main()
