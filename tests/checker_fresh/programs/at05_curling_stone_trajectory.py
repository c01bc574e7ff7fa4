# fresh-expect: clean
# fresh-note: Curling delivery simulator that advances stone distance and decelerates speed with two tile kernels per time step, rebinding every handed-back tensor and stopping once all stones rest.
"""Curling: slide a batch of delivered stones down the sheet until pebble friction stops them."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 32
MU_G = 0.0085 * 9.81


@tile.kernel
def travel(dist: Partition[f32], speed: Tensor[f32], dt: f32) -> None:
    dist.store(dist.load() + tile.load_like(speed, dist) * dt)


@tile.kernel
def glide(speed: Partition[f32], sweep: Tensor[f32], dt: f32) -> None:
    v = speed.load()
    friction = MU_G * (1.0 - tile.load_like(sweep, speed))
    speed.store(tile.maximum(v - friction * dt, 0.0))


def deliver(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    release = rng.uniform(1.95, 2.25, n).astype(np.float32)
    sweeping = rng.uniform(0.0, 0.25, n).astype(np.float32)
    return release, sweeping


def simulate(stream: sk.Stream, release: np.ndarray, sweeping: np.ndarray, dt: float = 0.25) -> np.ndarray:
    n = release.size
    dist = tile.zeros((n,), f32).partition((TILE,))
    speed = tile.from_numpy(release)
    sweep = tile.from_numpy(sweeping)
    for step in range(400):
        dist, speed, _ = travel(dist, speed, dt).sync_on(stream)
        moving = speed.partition((TILE,))
        moving, sweep, _ = glide(moving, sweep, dt).sync_on(stream)
        speed = moving.unpartition()
        if step % 20 == 19 and float(speed.to_numpy(stream).max()) == 0.0:
            print(f"all stones at rest after {(step + 1) * dt:.1f}s")
            break
    else:
        print("some stones still sliding at the end of the simulation")
    return dist.unpartition().to_numpy(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    release, sweeping = deliver(48, seed=3)
    final = simulate(stream, release, sweeping)
    tee_line = 28.35
    in_house = np.abs(final - tee_line) < 1.83
    print(f"{int(in_house.sum())} of {final.size} stones in the house; farthest {final.max():.2f} m")
    best = int(np.argmin(np.abs(final - tee_line)))
    print(f"shot stone #{best}: {final[best]:.2f} m, released at {release[best]:.2f} m/s")


if __name__ == "__main__":
    main()
