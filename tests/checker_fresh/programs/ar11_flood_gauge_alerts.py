# fresh-expect: clean
# fresh-note: river flood gauge alerts; a stage table pairs each kernel with its own prepared launch (built by a dict comprehension keyed by stage name) and the pipeline launches each stage with the matching entry.
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

GAUGES = 160


@simt.kernel
@simt.launch_contract(block=32)
def rise_rate(level: Slice[f32], rate: DisjointSlice[f32], dt_h: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := rate.get_mut(idx)) is not None:
        prev = level[i - 1] if i > 0 else level[i]
        r.set((level[i] - prev) / dt_h)


@simt.kernel
@simt.launch_contract(block=64)
def alert_level(rate: Slice[f32], alert: DisjointSlice[f32], threshold: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (a := alert.get_mut(idx)) is not None:
        a.set(f32(2.0) if rate[i] > threshold * f32(2.0) else (f32(1.0) if rate[i] > threshold else f32(0.0)))


STAGES: list[tuple[str, Any, int]] = [("rise", rise_rate, 32), ("alert", alert_level, 64)]


class GaugeNetwork:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.plans = {
            name: kernel.prepare(simt.LaunchConfig1D.for_len(GAUGES, block=block), dev) for name, kernel, block in STAGES
        }
        self.params: dict[str, float] = {"rise": 0.25, "alert": 0.05}

    def evaluate(self, levels_m: np.ndarray, on_stage: Callable[[str, np.ndarray], None]) -> np.ndarray:
        current = sk.to_device(levels_m.astype(np.float32), self.stream)
        for name, kernel, _block in STAGES:
            produced = sk.zeros(GAUGES, f32, self.stream)
            kernel.launch(self.plans[name], self.stream, current, produced, self.params[name])
            on_stage(name, produced.to_numpy(self.stream))
            current = produced
        return current.to_numpy(self.stream)


def main() -> None:
    network = GaugeNetwork(sk.Device.default())
    seen: dict[str, float] = {}

    def record(stage: str, values: np.ndarray) -> None:
        seen[stage] = float(np.abs(values).max())

    rng = np.random.default_rng(8)
    for storm in ("light", "heavy"):
        scale = 0.01 if storm == "light" else 0.04
        levels = 2.0 + np.cumsum(rng.uniform(0.0, scale, GAUGES))
        alerts = network.evaluate(levels, record)
        print(f"{storm}: {int((alerts == 2).sum())} red, {int((alerts == 1).sum())} amber; peaks {seen}")


if __name__ == "__main__":
    main()
