# fresh-expect: clean
# idiom: class methods rebinding self attributes from sync_on; drift takes the velocity back too (clean)
"""Leapfrog integration of charged particles in a harmonic ion trap, on the tile track.

Each particle moves in one dimension under the restoring force `-k x`.  A step is the usual
kick-drift-kick: half a velocity update, a full position update, half a velocity update.
Both kernels are autotuned over the tile width.  The final energy is compared against the
initial one: leapfrog is symplectic, so it should stay within a small band.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 128
CONFIGS = [tile.Config(TILE=64), tile.Config(TILE=256)]


@tile.autotune(configs=CONFIGS, key=["pos"], warmup=1, rep=2)
@tile.kernel
def kick(vel: Annotated[Partition[f32], tile.Dims(TILE)], pos: Tensor[f32], h: f32, spring: f32) -> None:
    vel.store(vel.load() - tile.load_like(pos, vel) * (spring * h))


@tile.autotune(configs=CONFIGS, key=["vel"], warmup=1, rep=2)
@tile.kernel
def drift(pos: Annotated[Partition[f32], tile.Dims(TILE)], vel: Tensor[f32], h: f32) -> None:
    pos.store(pos.load() + tile.load_like(vel, pos) * h)


class Trap:
    """Particle state on the device; every method hands the tensors back to `self`."""

    def __init__(self, x0: np.ndarray, v0: np.ndarray, spring: float, stream: sk.Stream) -> None:
        self.stream = stream
        self.spring = spring
        self.pos: Tensor[f32] = tile.from_numpy(x0.astype(np.float32)).sync_on(stream)
        self.vel: Tensor[f32] = tile.from_numpy(v0.astype(np.float32)).sync_on(stream)

    def half_kick(self, dt: float) -> None:
        self.vel, self.pos, _, _ = kick(self.vel, self.pos, 0.5 * dt, self.spring).sync_on(self.stream)

    def drift(self, dt: float) -> None:
        self.pos, self.vel, _ = drift(self.pos, self.vel, dt).sync_on(self.stream)

    def step(self, dt: float) -> None:
        self.half_kick(dt)
        self.drift(dt)
        self.half_kick(dt)

    def energy(self) -> float:
        x = self.pos.to_numpy(self.stream).astype(np.float64)
        v = self.vel.to_numpy(self.stream).astype(np.float64)
        return float(0.5 * np.sum(v * v) + 0.5 * self.spring * np.sum(x * x))


def simulate(n: int, steps: int, dt: float, seed: int = 3) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    stream = sk.Device.cpu().new_stream()
    trap = Trap(rng.uniform(-1.0, 1.0, n), rng.normal(0.0, 0.2, n), spring=4.0, stream=stream)
    start = trap.energy()
    for _ in range(steps):
        trap.step(dt)
    return start, trap.energy()


def main() -> None:
    start, end = simulate(n=700, steps=25, dt=0.01)
    drift_rel = abs(end - start) / start
    assert drift_rel < 1e-3, f"energy drifted by {drift_rel:.2e}"
    print(f"energy {start:.5f} -> {end:.5f} (relative drift {drift_rel:.1e})")


if __name__ == "__main__":
    main()
