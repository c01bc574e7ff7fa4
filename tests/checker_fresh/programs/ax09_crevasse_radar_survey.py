# fresh-expect: clean
# fresh-note: Gain-corrects ground-penetrating radar traces over a glacier with a cached_property gain curve that is a .shared() op, so reusing it in every launch is allowed; each trace comes fresh from a generator and is taken back from sync_on.
"""Crevasse detection from ground-penetrating radar: gain-correct each trace and flag hollow reflections."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

DEPTH_SAMPLES = 256
TILE = 64


@tile.kernel
def gain_correct(out: Partition[f32], trace: Tensor[f32], gain: Tensor[f32], floor: f32) -> None:
    t = tile.load_like(trace, out) * tile.load_like(gain, out)
    out.store(tile.maximum(t, floor))


@tile.kernel
def contrast(out: Partition[f32], corrected: Tensor[f32], gain: Tensor[f32]) -> None:
    c = tile.load_like(corrected, out)
    g = tile.load_like(gain, out)
    out.store(c * c / (g + 1.0))


class Antenna:
    def __init__(self, centre_mhz: float, stream: sk.Stream) -> None:
        self.centre_mhz = centre_mhz
        self.stream = stream

    @property
    def attenuation_db_per_m(self) -> float:
        return 0.012 * self.centre_mhz / 100.0

    @cached_property
    def gain(self) -> sk.SharedDeviceOp:
        depth = np.linspace(0.0, 60.0, DEPTH_SAMPLES, dtype=np.float32)
        curve = 10.0 ** (self.attenuation_db_per_m * depth / 10.0)
        return tile.from_numpy(curve.astype(np.float32)).shared()


class ShieldedAntenna(Antenna):
    def __init__(self, centre_mhz: float, stream: sk.Stream, shielding: float) -> None:
        super().__init__(centre_mhz, stream)
        self.shielding = shielding

    @property
    def attenuation_db_per_m(self) -> float:
        return super().attenuation_db_per_m * (1.0 - self.shielding)


@dataclass
class Flag:
    trace_no: int
    depth_index: int
    strength: float


def survey_line(n_traces: int, seed: int) -> Iterator[tuple[int, sk.DeviceOp]]:
    rng = np.random.default_rng(seed)
    for k in range(n_traces):
        raw = rng.normal(0.0, 0.2, DEPTH_SAMPLES) * np.exp(-np.arange(DEPTH_SAMPLES) / 90.0)
        if k % 5 == 3:
            raw[120:128] += 1.5  # the air gap of a snow-bridged crevasse
        yield k, tile.from_numpy(raw.astype(np.float32))


def process_trace(antenna: Antenna, trace: sk.DeviceOp) -> np.ndarray:
    out = tile.zeros((DEPTH_SAMPLES,), f32).partition((TILE,))
    out, trace_t, _, _ = gain_correct(out, trace, antenna.gain, 0.0).sync_on(antenna.stream)
    corrected = out.unpartition()
    score = tile.zeros((DEPTH_SAMPLES,), f32).partition((TILE,))
    score, corrected, _ = contrast(score, corrected, antenna.gain).sync_on(antenna.stream)
    return score.unpartition().to_numpy(antenna.stream)


def scan(antenna: Antenna, n_traces: int, threshold: float) -> list[Flag]:
    flags = []
    for k, trace in survey_line(n_traces, seed=int(antenna.centre_mhz)):
        score = process_trace(antenna, trace)
        peak = int(score.argmax())
        if score[peak] > threshold:
            flags.append(Flag(k, peak, float(score[peak])))
    return flags


def main() -> None:
    stream = sk.Device.default().new_stream()
    for antenna in (Antenna(250.0, stream), ShieldedAntenna(500.0, stream, shielding=0.3)):
        flags = scan(antenna, n_traces=10, threshold=0.8)
        where = ", ".join(f"#{f.trace_no}@{f.depth_index}" for f in flags)
        print(f"{type(antenna).__name__:15s} {antenna.centre_mhz:5.0f} MHz: {len(flags)} crevasse flags {where}")


if __name__ == "__main__":
    main()
