# fresh-expect: E0382 at line 61
# fresh-note: each tick keeps `prev_err = err` as the derivative term's history but discards the error tensor the launch hands back, so the next tick passes the moved tensor again.
"""A joint-space PID control loop for a 12-joint arm, one tile launch per control tick.

The controller state (command and integral term) lives in device partitions and goes round the loop; the host
side is a toy first-order plant that integrates the commanded joint velocities.  The loop stops early once every
joint is within tolerance of its setpoint.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

JOINTS = 12
TILE = 16
DT = 0.01
KP, KI, KD = 4.0, 0.8, 0.05
TOLERANCE = 1e-3
MAX_TICKS = 400


@tile.kernel
def pid_step(cmd: Partition[f32], integral: Partition[f32], err: Tensor[f32], prev_err: Tensor[f32],
             kp: f32, ki: f32, kd: f32, dt: f32) -> None:
    e = tile.load_like(err, cmd)
    pe = tile.load_like(prev_err, cmd)
    acc = integral.load() + e * dt
    integral.store(acc)
    u = e * kp + acc * ki + (e - pe) * (kd / dt)
    cmd.store(tile.minimum(tile.maximum(u, -2.0), 2.0))


class Plant:
    """Joint positions that follow the commanded velocities with a little lag."""

    def __init__(self, start: np.ndarray) -> None:
        self.pos = start.astype(np.float32).copy()
        self.vel = np.zeros_like(self.pos)

    def advance(self, cmd: np.ndarray, dt: float) -> np.ndarray:
        self.vel += (cmd - self.vel) * 0.5
        self.pos += self.vel * dt
        return self.pos


def run_controller(stream: sk.Stream, setpoint: np.ndarray, plant: Plant) -> tuple[int, np.ndarray]:
    cmd = tile.zeros((JOINTS,), f32).partition((TILE,)).sync_on(stream)
    integral = tile.zeros((JOINTS,), f32).partition((TILE,)).sync_on(stream)
    prev_err = tile.from_numpy(setpoint - plant.pos).sync_on(stream)
    ticks = 0
    for ticks in range(1, MAX_TICKS + 1):
        error = (setpoint - plant.pos).astype(np.float32)
        if np.abs(error).max() < TOLERANCE:
            break
        err = tile.from_numpy(error)
        cmd, integral, _, _, _, _, _, _ = pid_step(cmd, integral, err, prev_err, KP, KI, KD, DT).sync_on(stream)
        prev_err = err
        plant.advance(cmd.to_numpy(stream), DT)
    return ticks, setpoint - plant.pos


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(3)
    start = rng.uniform(-1.0, 1.0, JOINTS).astype(np.float32)
    setpoint = np.linspace(-0.5, 0.5, JOINTS).astype(np.float32)
    plant = Plant(start)
    ticks, residual = run_controller(stream, setpoint, plant)
    print(f"settled after {ticks} ticks, worst joint error {np.abs(residual).max():.2e} rad")
    for j in range(0, JOINTS, 4):
        print(f"joint {j:2d}: target {setpoint[j]:+.3f} reached {plant.pos[j]:+.3f}")


if __name__ == "__main__":
    main()
