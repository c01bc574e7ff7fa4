# fresh-expect: E0382 at line 37
# fresh-note: found since: a nested function's parameter default that is a place keeps the object it was at the `def`; a call omitting the argument reads it (parameter_defaults)
"""1-D density decay simulation: each step partitions the density field, runs a tile
kernel that damps it by the local velocity, and prints the total mass."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 1024
TILE = 256
DT = 0.05


@tile.kernel
def advect(rho: Partition[f32], vel: Tensor[f32], dt: f32) -> None:
    r = rho.load()
    rho.store(r - dt * r * tile.load_like(vel, rho))


def initial_density() -> np.ndarray:
    x = np.linspace(-1.0, 1.0, N, dtype=np.float32)
    return np.exp(-8.0 * x * x).astype(np.float32)


def main() -> None:
    stream = sk.Device.default().new_stream()
    density = sk.to_device(initial_density(), stream)
    vel = tile.from_numpy(np.linspace(0.5, 1.5, N, dtype=np.float32)).sync_on(stream)
    history: list[float] = []

    def report(tag: str, field=density) -> None:
        mass = float(field.to_numpy(stream).sum())
        history.append(mass)
        print(f"{tag:>8}: mass {mass:.4f}")

    report("initial")
    for step in range(1, 4):
        parts = density.partition((TILE,))
        parts, vel, _ = advect(parts, vel, DT).sync_on(stream)
        density = parts.unpartition()
        report(f"step {step}")

    decay = [b / a for a, b in zip(history, history[1:])]
    print("per-step decay:", ", ".join(f"{d:.3f}" for d in decay))


if __name__ == "__main__":
    main()
