# fresh-expect: clean
# fresh-note: the attitude loop takes every tensor back from sync_on each tick, so the error history it keeps for the derivative term is the handed-back tensor.
"""Attitude-rate PD control for a swarm of 16 quadrotors, one tile launch per control tick.

Roll rates of every vehicle are controlled at once: the device keeps the torque command, the host integrates a toy
rigid-body model.  The loop leaves early when the whole swarm is level.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

VEHICLES = 16
TILE = 8
DT = 0.005
KP, KD = 6.0, 0.5
INERTIA = 0.02
LEVEL_TOL = 2e-3
MAX_TICKS = 600


@tile.kernel
def pd_torque(torque: Partition[f32], err: Tensor[f32], prev_err: Tensor[f32], kp: f32, kd: f32,
              dt: f32, limit: f32) -> None:
    e = tile.load_like(err, torque)
    pe = tile.load_like(prev_err, torque)
    u = e * kp + (e - pe) * (kd / dt)
    torque.store(tile.minimum(tile.maximum(u, -limit), limit))


class Swarm:
    """Roll angle and rate of each vehicle under the commanded torque."""

    def __init__(self, roll: np.ndarray) -> None:
        self.roll = roll.astype(np.float32).copy()
        self.rate = np.zeros_like(self.roll)

    def advance(self, torque: np.ndarray, dt: float) -> np.ndarray:
        self.rate += torque / INERTIA * dt
        self.roll += self.rate * dt
        return self.roll


def level_swarm(stream: sk.Stream, swarm: Swarm) -> tuple[int, np.ndarray]:
    torque = tile.zeros((VEHICLES,), f32).partition((TILE,)).sync_on(stream)
    prev_err = tile.from_numpy(-swarm.roll).sync_on(stream)
    ticks = 0
    for ticks in range(1, MAX_TICKS + 1):
        error = (-swarm.roll).astype(np.float32)
        if np.abs(error).max() < LEVEL_TOL:
            break
        err = tile.from_numpy(error)
        torque, err, _, _, _, _, _ = pd_torque(torque, err, prev_err, KP, KD, DT, 1.5).sync_on(stream)
        prev_err = err
        swarm.advance(torque.to_numpy(stream), DT)
    return ticks, swarm.roll


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(5)
    swarm = Swarm(rng.uniform(-0.3, 0.3, VEHICLES))
    ticks, roll = level_swarm(stream, swarm)
    print(f"{VEHICLES} vehicles after {ticks} ticks: worst roll {np.degrees(np.abs(roll).max()):.3f} deg")
    for v in range(0, VEHICLES, 5):
        print(f"vehicle {v:2d}: roll {np.degrees(roll[v]):+.3f} deg, rate {swarm.rate[v]:+.4f} rad/s")


if __name__ == "__main__":
    main()
