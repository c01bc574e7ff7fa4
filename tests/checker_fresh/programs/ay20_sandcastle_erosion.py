# fresh-expect: clean
# fresh-note: Sandcastle erosion runs per tide stage until settled with for/else and break, always rebinding from sync_on, and calm stages continue before anything is partitioned.
"""Sandcastle erosion by swash: wall height profile over a rising tide.

Each tide stage runs erosion steps until the profile stops changing (for/else reports
stages that did not settle). Every exit from the inner loop, break included, leaves the
profile handed back by sync_on; calm stages are skipped before anything is partitioned.
"""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CELLS = 128
TILE = (32,)
MAX_STEPS = 12
SETTLED = 3e-3


@tile.kernel
def erode(height: Partition[f32], previous: Partition[f32], swash: Tensor[f32], rate: f32) -> None:
    h = height.load()
    s = tile.load_like(swash, height)
    previous.store(h)
    loss = tile.minimum(h, s * rate * tile.exp(-h * 0.1))
    height.store(h - loss)


def tide_stages(rng: np.random.Generator) -> list[tuple[str, float, np.ndarray]]:
    stages = []
    for k, name in enumerate(("low", "flood", "calm", "high")):
        energy = 0.0 if name == "calm" else 0.3 + 0.4 * k
        swash = np.clip(rng.normal(energy, 0.1, CELLS), 0.0, None).astype(np.float32)
        stages.append((name, energy, swash))
    return stages


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1066)

    profile = np.full(CELLS, 30.0, np.float32)
    profile[40:88] = 55.0  # the keep
    height = tile.from_numpy(profile).partition(TILE)
    previous = tile.zeros((CELLS,), f32).partition(TILE)

    stages = tide_stages(rng)
    idx = 0
    while idx < len(stages):
        name, energy, swash_host = stages[idx]
        idx += 1
        if energy <= 0.0:
            print(f"{name:>6}: no swash, skipping")
            continue
        swash = tile.from_numpy(swash_host).shared()
        for step in range(MAX_STEPS):
            height, previous, _swash, _rate = erode(height, previous, swash, 0.08).sync_on(stream)
            change = float(np.abs(height.to_numpy(stream) - previous.to_numpy(stream)).max())
            if change < SETTLED:
                print(f"{name:>6}: settled after {step + 1} steps")
                break
        else:
            print(f"{name:>6}: still eroding after {MAX_STEPS} steps (last change {change:.3f} cm)")

    final = height.unpartition().to_numpy(stream)
    print(f"keep height {final[40:88].mean():.1f} cm, moat wall {final[:40].mean():.1f} cm")


if __name__ == "__main__":
    main()
