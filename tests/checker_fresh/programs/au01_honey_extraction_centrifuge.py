# fresh-expect: E0502 at line 61
# fresh-note: Honey extraction centrifuge drain-rate profiling; for the low-memory annex line the `target` property returns the viscosity trace, which the same launch reads.
"""Drain-rate profiling for the centrifugal honey extractors of a packing plant."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 256


@simt.kernel
@simt.launch_contract(block=64)
def drain_rate(rpm: Slice[f32], viscosity: Slice[f32], out: DisjointSlice[f32], radius: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        omega = rpm[i] * f32(0.10472)
        o.set(omega * omega * radius / (viscosity[i] + f32(1.0)))


@dataclass
class ExtractorConfig:
    radius_m: float = 0.35
    low_memory: bool = False
    batches: int = 3


class SpinCycle:
    """One extractor: its sensor traces on the device and the drain-rate result."""

    def __init__(self, cfg: ExtractorConfig, dev: sk.Device, stream: sk.Stream, seed: int) -> None:
        self.cfg = cfg
        self.stream = stream
        rng = np.random.default_rng(seed)
        self.rpm = sk.to_device(rng.uniform(200, 450, FRAMES).astype(np.float32), stream)
        self.viscosity = sk.to_device(rng.uniform(2, 10, FRAMES).astype(np.float32), stream)
        self.rates = None if cfg.low_memory else sk.zeros(FRAMES, f32, stream)
        self.prepared = drain_rate.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=64), dev)

    @property
    def target(self) -> sk.DeviceBuffer:
        if self.rates is None:
            return self.viscosity
        return self.rates

    def spin(self, batch: int) -> np.ndarray:
        radius = self.cfg.radius_m * (1.0 + 0.05 * batch)
        drain_rate.launch(
            self.prepared,
            self.stream,
            self.rpm,
            self.viscosity,
            self.target,
            radius,
        )
        return self.target.to_numpy(self.stream)


def summarize(name: str, history: list[np.ndarray]) -> dict[str, float | str]:
    stacked = np.stack(history)
    return {"line": name, "peak": float(stacked.max()), "mean": float(stacked.mean())}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    lines = {
        "north": ExtractorConfig(),
        "south": ExtractorConfig(radius_m=0.42, batches=2),
        "annex": ExtractorConfig(radius_m=0.28, low_memory=True, batches=2),
    }
    for seed, (name, cfg) in enumerate(lines.items()):
        cycle = SpinCycle(cfg, dev, stream, seed)
        history = [cycle.spin(b) for b in range(cfg.batches)]
        print(summarize(name, history))


if __name__ == "__main__":
    main()
