# fresh-expect: clean
# fresh-note: A foundry pours every mold from a nonlocal closure that rebinds the melt it hands back, then captures each casting's cooling step with graph_on and replays it in a while/else loop, reading graph.value.
"""Foundry sand casting: pour a melt into each mold from a closure, then replay a captured cooling graph until solid."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CELLS = 256
SOLIDUS_C = 1150.0


@tile.kernel
def pour(casting: Partition[f32], melt: Tensor[f32], superheat: f32) -> None:
    casting.store(tile.load_like(melt, casting) + superheat)


@tile.kernel
def cool_step(casting: Partition[f32], sand_k: Tensor[f32], ambient: f32) -> None:
    t = casting.load()
    casting.store(t - (t - ambient) * tile.load_like(sand_k, casting))


@dataclass
class Mold:
    pattern: str
    sand: str
    moisture: float


SAND_CONDUCTIVITY = {"greensand": 0.020, "resin-bonded": 0.012, "chromite": 0.030}


def pour_all(molds: list[Mold], stream: sk.Stream, alloy_c: float) -> dict[str, Partition]:
    melt = tile.full((CELLS,), alloy_c, f32).sync_on(stream)
    castings: dict[str, Partition] = {}

    def ladle(mold: Mold) -> None:
        nonlocal melt
        cavity = tile.zeros((CELLS,), f32).partition((64,))
        superheat = 40.0 if mold.moisture < 0.04 else 25.0
        castings[mold.pattern], melt, _ = pour(cavity, melt, superheat).sync_on(stream)

    for mold in molds:
        ladle(mold)
    return castings


def shakeout_steps(casting: Partition, mold: Mold, stream: sk.Stream, max_steps: int = 400) -> tuple[int, np.ndarray]:
    k = SAND_CONDUCTIVITY.get(mold.sand, 0.02) * (1.0 + mold.moisture)
    sand = tile.from_numpy(np.full(CELLS, k, np.float32) * np.linspace(1.2, 0.8, CELLS, dtype=np.float32))
    graph = cool_step(casting, sand, 25.0).graph_on(stream)
    steps = 1
    while steps < max_steps:
        cooled, _sand, _ambient = graph.value
        if (hottest := float(cooled.to_numpy(stream).max())) < SOLIDUS_C - 200.0:
            break
        graph.replay(stream)
        steps += 1
    else:
        print(f"{mold.pattern}: still {hottest:.0f} C after {steps} steps")
    cooled, _sand, _ambient = graph.value
    return steps, cooled.to_numpy(stream)


def main() -> None:
    stream = sk.Device.default().new_stream()
    molds = [Mold("pump-housing", "greensand", 0.035), Mold("valve-body", "resin-bonded", 0.0),
             Mold("impeller", "chromite", 0.05)]
    castings = pour_all(molds, stream, alloy_c=1420.0)
    for mold in molds:
        steps, profile = shakeout_steps(castings.pop(mold.pattern), mold, stream)
        print(f"{mold.pattern:13s} shakeout after {steps:3d} steps, core {profile[CELLS // 2]:.0f} C")
    assert not castings


if __name__ == "__main__":
    main()
