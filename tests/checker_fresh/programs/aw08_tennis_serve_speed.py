# fresh-expect: E0308 at line 74
# fresh-known-miss: cli,mypy the kernel and its prepared launch looked up under one computed key (`ESTIMATORS.get(serve.stroke, ...)`, `self.prepared.get(serve.stroke, ...)`) of tables paired by `zip(sorted(...), ....values())`: lookups under one key are not paired
# fresh-note: A tennis serve analyzer builds its prepared-launch registry by zipping sorted(ESTIMATORS) with ESTIMATORS.values(), whose orders differ, so the kick serve launches kick_speed with the launch prepared for slice_speed.
"""Tennis serve radar: a registry of per-stroke speed estimators, each launched with its prepared configuration."""
from __future__ import annotations
from collections import Counter
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SAMPLES = 128
MS_TO_KMH = 3.6


@simt.kernel
@simt.launch_contract(block=64)
def flat_speed(doppler: Slice[f32], kmh: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := kmh.get_mut(idx)) is not None:
        o.set(doppler[i] * gain * 3.6)


@simt.kernel
@simt.launch_contract(block=64)
def slice_speed(doppler: Slice[f32], kmh: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := kmh.get_mut(idx)) is not None:
        o.set(doppler[i] * gain * 3.6 * 1.08)


@simt.kernel
@simt.launch_contract(block=64)
def kick_speed(doppler: Slice[f32], kmh: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := kmh.get_mut(idx)) is not None:
        o.set(doppler[i] * gain * 3.6 * 1.15)


# the spin models correct the radar's line-of-sight component differently
ESTIMATORS = {"flat": flat_speed, "slice": slice_speed, "kick": kick_speed}


@dataclass(frozen=True)
class Serve:
    player: str
    stroke: str
    peak_ms: float


class ServeAnalyzer:
    def __init__(self, dev: sk.Device, gain: float = 1.0) -> None:
        self.stream = dev.new_stream()
        self.gain = gain
        config = simt.LaunchConfig1D.for_len(SAMPLES, block=64)
        self.prepared = {stroke: kernel.prepare(config, dev) for stroke, kernel in zip(sorted(ESTIMATORS), ESTIMATORS.values())}
        self.out = sk.zeros(SAMPLES, f32, self.stream)
        self.fastest: dict[str, float] = {}

    def trace(self, serve: Serve) -> sk.DeviceBuffer:
        t = np.linspace(0.0, 1.0, SAMPLES, dtype=np.float32)
        return sk.to_device((serve.peak_ms * np.exp(-4.0 * (t - 0.2) ** 2)).astype(np.float32), self.stream)

    def measure(self, serve: Serve) -> float:
        kernel = ESTIMATORS.get(serve.stroke, flat_speed)
        prepared = self.prepared.get(serve.stroke, self.prepared["flat"])
        kernel.launch(prepared, self.stream, self.trace(serve), self.out, self.gain)
        top = float(self.out.to_numpy(self.stream).max())
        self.fastest[serve.player] = max(top, self.fastest.get(serve.player, 0.0))
        return top


def main() -> None:
    analyzer = ServeAnalyzer(sk.Device.default(), gain=0.98)
    serves = [Serve("Ruiz", "flat", 55.0), Serve("Okafor", "flat", 52.5), Serve("Ruiz", "kick", 44.0),
              Serve("Okafor", "slice", 47.0)]
    per_stroke = Counter()
    for serve in serves:
        kmh = analyzer.measure(serve)
        per_stroke[serve.stroke] += 1
        print(f"{serve.player:7s} {serve.stroke:5s} {kmh:6.1f} km/h")
    print(dict(per_stroke), analyzer.fastest)


if __name__ == "__main__":
    main()
