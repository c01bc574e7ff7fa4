# fresh-expect: clean
# fresh-note: Wind-farm blade pitch control: launches are prepared from a dict registry of stage name to kernel, so each stage gets its own kernel's launch, and the applied pitch ping-pongs between two swapped buffers (clean twin of the PV inverter).
"""Wind farm blade pitch control: pitch demand from hub wind speed, then an actuator rate limit.

Every turbine of the farm gets a pitch demand above rated wind speed; the actuator can only move so many
degrees per control step, so the applied pitch is rate-limited against the previous step (a ping-pong pair
of buffers swapped after every step).  Launches are prepared once per stage from a registry of kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
RATED_MS = 11.4


@simt.kernel
@simt.launch_contract(block=BLOCK)
def pitch_demand(wind: Slice[f32], demand: DisjointSlice[f32], gain_deg: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (d := demand.get_mut(idx)) is not None:
        d.set(min(max(gain_deg * (wind[i] - f32(RATED_MS)), f32(0.0)), f32(25.0)))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def rate_limit(demand: Slice[f32], previous: Slice[f32], applied: DisjointSlice[f32], max_step: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (a := applied.get_mut(idx)) is not None:
        a.set(previous[i] + min(max(demand[i] - previous[i], -max_step), max_step))


@dataclass
class FarmConfig:
    turbines: int = 96
    gain_deg: float = 2.2
    max_rate_deg_s: float = 8.0
    dt_s: float = 0.25

    @property
    def max_step(self) -> float:
        return self.max_rate_deg_s * self.dt_s


class PitchController:
    STAGES = {"demand": pitch_demand, "limit": rate_limit}

    def __init__(self, cfg: FarmConfig, device: sk.Device, stream: sk.Stream) -> None:
        self.cfg = cfg
        self.stream = stream
        launch = simt.LaunchConfig1D.for_len(cfg.turbines, block=BLOCK)
        self.prepared = {name: k.prepare(launch, device) for name, k in self.STAGES.items()}
        self.demand = sk.zeros(cfg.turbines, f32, stream)
        self.previous = sk.zeros(cfg.turbines, f32, stream)
        self.applied = sk.zeros(cfg.turbines, f32, stream)

    def step(self, wind_ms: np.ndarray) -> np.ndarray:
        wind = sk.to_device(wind_ms.astype(np.float32), self.stream)
        pitch_demand.launch(self.prepared["demand"], self.stream, wind, self.demand, self.cfg.gain_deg)
        rate_limit.launch(self.prepared["limit"], self.stream, self.demand, self.previous, self.applied,
                          self.cfg.max_step)
        self.previous, self.applied = self.applied, self.previous
        return self.previous.to_numpy(self.stream)


def main() -> None:
    cfg = FarmConfig()
    stream = sk.Device.cpu().new_stream()
    controller = PitchController(cfg, sk.Device.cpu(), stream)
    rng = np.random.default_rng(77)
    gust = np.concatenate([np.linspace(9.0, 17.0, 20), np.full(20, 17.0), np.linspace(17.0, 12.0, 20)])
    for step, hub in enumerate(gust):
        pitch = controller.step(hub + rng.normal(0.0, 0.6, cfg.turbines))
        if step % 10 == 9:
            print(f"t={step * cfg.dt_s:5.2f} s hub {hub:5.1f} m/s pitch mean {pitch.mean():5.2f} deg max {pitch.max():5.2f}")


if __name__ == "__main__":
    main()
