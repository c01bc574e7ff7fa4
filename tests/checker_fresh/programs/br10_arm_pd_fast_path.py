# fresh-expect: clean
# fresh-note: the unsafe block sits inside `UncheckedLauncher.fire`, lexically around its own `launch_unchecked` call.
"""Joint-space PD control for a fleet of 7-DoF arms at 1 kHz.

Every control tick computes saturated joint torques for all arms in one SIMT launch.  To keep the
per-tick overhead down, the launch configuration is validated once at start-up and the tick then uses
the unchecked launch path.
"""

from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DOF = 7
ARMS = 6
JOINTS = DOF * ARMS


@simt.kernel
@simt.launch_contract(block=64)
def pd_torque(q: Slice[f32], qd: Slice[f32], q_ref: Slice[f32], tau: DisjointSlice[f32],
              kp: f32, kd: f32, limit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (t := tau.get_mut(idx)) is not None:
        u = kp * (q_ref[i] - q[i]) - kd * qd[i]
        t.set(max(-limit, min(limit, u)))


@dataclass(frozen=True)
class Gains:
    kp: float = 40.0
    kd: float = 4.0
    torque_limit: float = 25.0


class UncheckedLauncher:
    """Validates a configuration once with `prepare`, then launches without re-validating."""

    def __init__(self, kernel: Any, config: simt.LaunchConfig1D, dev: sk.Device) -> None:
        kernel.prepare(config, dev)  # raises here, at start-up, if the config breaks the contract
        self.kernel = kernel
        self.config = config
        self.fired = 0

    def fire(self, stream: sk.Stream, *args: Any) -> None:
        with simt.unsafe():  # the config was validated once in __init__
            self.kernel.launch_unchecked(self.config, stream, *args)
        self.fired += 1


@contextmanager
def tick_budget(stats: dict[str, float], budget_s: float) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        elapsed = time.perf_counter() - start
        stats["worst"] = max(stats.get("worst", 0.0), elapsed)
        stats["overruns"] = stats.get("overruns", 0) + (elapsed > budget_s)


class FleetController:
    def __init__(self, gains: Gains, dev: sk.Device, stream: sk.Stream, rate_hz: float = 1000.0) -> None:
        self.gains = gains
        self.stream = stream
        self.period = 1.0 / rate_hz
        self.launcher = UncheckedLauncher(pd_torque, simt.LaunchConfig1D.for_len(JOINTS, block=64), dev)
        self.tau = sk.zeros(JOINTS, f32, stream)
        self.stats: dict[str, float] = {}

    def step(self, q: np.ndarray, qd: np.ndarray, q_ref: np.ndarray) -> np.ndarray:
        q_d = sk.to_device(q.astype(np.float32), self.stream)
        qd_d = sk.to_device(qd.astype(np.float32), self.stream)
        ref_d = sk.to_device(q_ref.astype(np.float32), self.stream)
        g = self.gains
        with tick_budget(self.stats, self.period):
            self.launcher.fire(self.stream, q_d, qd_d, ref_d, self.tau, g.kp, g.kd, g.torque_limit)
        return self.tau.to_numpy(self.stream)


class ArmFleetSim:
    """Unit-inertia joints with viscous friction, integrated with semi-implicit Euler."""

    def __init__(self, seed: int = 5) -> None:
        rng = np.random.default_rng(seed)
        self.q = rng.uniform(-1.0, 1.0, JOINTS)
        self.qd = np.zeros(JOINTS)

    def advance(self, tau: np.ndarray, dt: float) -> None:
        self.qd += (tau - 0.5 * self.qd) * dt
        self.q += self.qd * dt


def reference_trajectory(t: float) -> np.ndarray:
    phase = np.repeat(np.arange(ARMS), DOF) * 0.3
    return 0.2 * np.sin(0.5 * t + phase)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    ctrl = FleetController(Gains(), dev, stream)
    sim = ArmFleetSim()
    dt = ctrl.period
    errors = []
    for k in range(200):
        t = k * dt
        ref = reference_trajectory(t)
        tau = ctrl.step(sim.q, sim.qd, ref)
        sim.advance(tau, dt)
        errors.append(float(np.abs(ref - sim.q).max()))
    assert errors[-1] < errors[0], (errors[0], errors[-1])
    print(f"{ctrl.launcher.fired} ticks, tracking error {errors[0]:.3f} -> {errors[-1]:.3f} rad, "
          f"worst tick {ctrl.stats['worst'] * 1e3:.2f} ms, {math.floor(ctrl.stats['overruns'])} overruns")


if __name__ == "__main__":
    main()
