# fresh-expect: E0382 at line 46
# fresh-note: Yarn dye-bath model kept in a frozen dataclass rebuilt with dataclasses.replace after each tile launch; its `shade` reporting property reads the fibre with `unpartition()` (which moves the partition) instead of the borrowing to_numpy, so the next dye step launches with a moved fibre partition.
"""Dye uptake of yarn skeins in a heated bath (tile kernel, frozen-dataclass state)."""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SKEINS = 2048
TILE = 256


@tile.kernel
def uptake(fiber: Partition[f32], bath: Partition[f32], affinity: Tensor[f32], rate: f32) -> None:
    f = fiber.load()
    d = bath.load()
    a = tile.load_like(affinity, fiber)
    absorbed = d * a * rate * (1.0 - f)
    fiber.store(f + absorbed)
    bath.store(d - absorbed)


@dataclass(frozen=True)
class DyeBatch:
    stream: sk.Stream
    minute: int
    fiber: object     # Partition[f32]: colour depth per skein, 0..1
    bath: object      # Partition[f32]: dye left in the liquor around it

    @property
    def shade(self) -> float:
        return float(self.fiber.unpartition().to_numpy(self.stream).mean())


def rate_at(temp_c: float) -> float:
    return 0.02 * 2.0 ** ((temp_c - 60.0) / 10.0)


def dye_step(batch: DyeBatch, affinity: sk.SharedDeviceOp, temp_c: float) -> DyeBatch:
    fiber, bath, _aff, _rate = uptake(batch.fiber, batch.bath, affinity, rate_at(temp_c)).sync_on(batch.stream)
    return replace(batch, minute=batch.minute + 1, fiber=fiber, bath=bath)


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(21)
    affinity = tile.from_numpy(rng.uniform(0.7, 1.0, SKEINS).astype(np.float32)).shared()
    batch = DyeBatch(
        stream=stream,
        minute=0,
        fiber=tile.zeros((SKEINS,), f32).partition((TILE,)).sync_on(stream),
        bath=tile.full((SKEINS,), 1.0, f32).partition((TILE,)).sync_on(stream),
    )
    ramp = [60.0, 70.0, 80.0, 90.0, 95.0, 95.0]
    for temp in ramp:
        batch = dye_step(batch, affinity, temp)
        if temp >= 80.0:
            print(f"minute {batch.minute}: {temp:.0f} C, shade {batch.shade:.3f}")
    left = batch.bath.unpartition().to_numpy(stream)
    print(f"dye left in the liquor: {left.mean():.3f}")


if __name__ == "__main__":
    main()
