# fresh-expect: E0502 at line 95
# fresh-known-miss: cli,mypy a ping-pong route built by itertools.pairwise over itertools.chain of a display and itertools.islice(itertools.cycle(...)): items of chained and cycled iterables are not paired
# fresh-note: Apodizes an NMR FID through ping-pong work buffers from an itertools.pairwise route; after copying the FID into work_a the route is started at work_a too, so the first (src, dst) pair is work_a twice and the stage reads and writes the same buffer.
"""1-D NMR processing: DC correction and apodization of a free induction decay, then a spectrum.
The FID is copied into a work buffer (the raw data stay untouched for re-processing), and the
processing stages ping-pong between two work buffers before the host takes the real FFT.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1024
DWELL_S = 1.0 / 4000.0
LAUNCH = simt.LaunchConfig1D.for_len(N, block=128)


@simt.kernel
@simt.launch_contract(block=128)
def copy_fid(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


@simt.kernel
@simt.launch_contract(block=128)
def dc_correct(src: Slice[f32], dst: DisjointSlice[f32], offset: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] - offset)


@simt.kernel
@simt.launch_contract(block=128)
def exp_window(src: Slice[f32], dst: DisjointSlice[f32], lb_hz: f32, dwell: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * math.exp(f32(-3.14159265) * lb_hz * dwell * f32(i)))


class Stage(NamedTuple):
    name: str
    kernel: object
    prep: simt.PreparedLaunch
    args: tuple[float, ...]


def route(first: sk.DeviceBuffer, a: sk.DeviceBuffer, b: sk.DeviceBuffer,
          n_stages: int) -> Iterator[tuple[sk.DeviceBuffer, sk.DeviceBuffer]]:
    """(src, dst) pairs for n stages: first -> a -> b -> a -> ..."""
    hops = itertools.chain([first], itertools.islice(itertools.cycle((a, b)), n_stages))
    return itertools.pairwise(hops)


def synthetic_fid(rng: np.random.Generator) -> np.ndarray:
    t = np.arange(N) * DWELL_S
    lines = ((420.0, 1.0, 0.09), (610.0, 0.6, 0.07), (1380.0, 0.3, 0.12))
    fid = sum(amp * np.cos(2 * np.pi * f * t) * np.exp(-t / t2) for f, amp, t2 in lines)
    return (fid + 0.05 + rng.normal(0, 0.02, N)).astype(np.float32)


def build_stages(dev: sk.Device, raw: np.ndarray) -> list[Stage]:
    tail = float(raw[-N // 8 :].mean())
    return [
        Stage("dc", dc_correct, dc_correct.prepare(LAUNCH, dev), (tail,)),
        Stage("em 2 Hz", exp_window, exp_window.prepare(LAUNCH, dev), (2.0, DWELL_S)),
        Stage("em 1 Hz", exp_window, exp_window.prepare(LAUNCH, dev), (1.0, DWELL_S)),
    ]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    raw = synthetic_fid(np.random.default_rng(600))
    fid = sk.to_device(raw, stream)
    work_a = sk.zeros(N, f32, stream)
    work_b = sk.zeros(N, f32, stream)
    copy_fid.launch(copy_fid.prepare(LAUNCH, dev), stream, fid, work_a)

    stages = build_stages(dev, raw)
    last = work_a
    for stage, (src, dst) in zip(stages, route(work_a, work_a, work_b, len(stages))):
        stage.kernel.launch(stage.prep, stream, src, dst, *stage.args)
        last = dst

    processed = last.to_numpy(stream)
    spectrum = np.abs(np.fft.rfft(processed))
    freqs = np.fft.rfftfreq(N, DWELL_S)
    top = np.argsort(spectrum[5:])[-3:][::-1] + 5
    print("peaks (Hz):", ", ".join(f"{freqs[k]:.0f}" for k in sorted(top)))
    print(f"raw FID untouched: {np.allclose(fid.to_numpy(stream), raw)}")


if __name__ == "__main__":
    main()
