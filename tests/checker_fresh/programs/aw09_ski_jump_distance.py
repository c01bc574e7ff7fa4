# fresh-expect: E0502 at line 78
# fresh-note: A ski-jump analyzer's FlightTrace.allocate classmethod reuses the raw height buffer as the filter output on large hills to save memory, so the smoothing stencil launch reads and writes the same buffer on the large hill.
"""Ski jump flight analysis: smooth the laser altimeter trace, then find the landing point, per hill."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DEVICE_BUDGET_BYTES = 5 * 1024


@simt.kernel
@simt.launch_contract(block=64)
def smooth_height(height: Slice[f32], filtered: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(height)
    lo = max(i - 1, 0)
    hi = min(i + 1, n - 1)
    if (o := filtered.get_mut(idx)) is not None:
        o.set((height[lo] + height[i] + height[hi]) / 3.0)


@simt.kernel
@simt.launch_contract(block=64)
def ground_clearance(filtered: Slice[f32], profile: Slice[f32], clearance: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := clearance.get_mut(idx)) is not None:
        o.set(filtered[i] - profile[i])


@dataclass
class FlightTrace:
    height: sk.DeviceBuffer
    filtered: sk.DeviceBuffer
    clearance: sk.DeviceBuffer

    @classmethod
    def allocate(cls, n: int, stream: sk.Stream) -> FlightTrace:
        height = sk.zeros(n, f32, stream)
        clearance = sk.zeros(n, f32, stream)
        # keep the working set inside the per-hill budget: reuse the raw trace for the filter output
        filtered = height if 3 * 4 * n > DEVICE_BUDGET_BYTES else sk.zeros(n, f32, stream)
        return cls(height, filtered, clearance)


@dataclass
class Hill:
    name: str
    k_point: float
    samples: int


class JumpAnalyzer:
    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.traces: dict[str, FlightTrace] = {}

    def _prepare(self, kernel, n: int):
        return kernel.prepare(simt.LaunchConfig1D.for_len(n, block=64), self.dev)

    def landing(self, hill: Hill, jumper_seed: int) -> float:
        n = hill.samples
        trace = self.traces.setdefault(hill.name, FlightTrace.allocate(n, self.stream))
        x = np.linspace(0.0, hill.k_point * 1.3, n, dtype=np.float32)
        rng = np.random.default_rng(jumper_seed)
        flight = 3.0 + 0.045 * x - 0.0009 * x * x + 0.05 * rng.standard_normal(n).astype(np.float32)
        trace.height.copy_from_numpy(flight.astype(np.float32), self.stream)
        profile = sk.to_device((-0.4 * np.sqrt(x + 1.0) + 0.4).astype(np.float32), self.stream)
        smooth_height.launch(self._prepare(smooth_height, n), self.stream, trace.height, trace.filtered)
        ground_clearance.launch(self._prepare(ground_clearance, n), self.stream, trace.filtered, profile, trace.clearance)
        clear = trace.clearance.to_numpy(self.stream)
        touchdown = np.argmax(clear[n // 8 :] <= 0.0) + n // 8 if (clear[n // 8 :] <= 0.0).any() else n - 1
        return float(x[touchdown])


def main() -> None:
    analyzer = JumpAnalyzer(sk.Device.default())
    hills = [Hill("normal-HS106", 95.0, 256), Hill("large-HS140", 125.0, 512)]
    for hill in hills:
        distances = [analyzer.landing(hill, seed) for seed in range(3)]
        print(f"{hill.name}: {', '.join(f'{d:.1f} m' for d in distances)}")


if __name__ == "__main__":
    main()
