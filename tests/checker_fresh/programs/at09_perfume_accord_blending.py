# fresh-expect: clean
# fresh-note: Perfume accord blending that mixes top, heart and base note intensity curves for each accord in a dataclass, skipping discontinued accords before any launch is built and running every built op.
"""Perfumery: evaporation-weighted blend of note intensity curves for a set of accords."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

HOURS = 48
TILE = 16


@tile.kernel
def blend(out: Partition[f32], top: Tensor[f32], heart: Tensor[f32], base: Tensor[f32],
          w_top: f32, w_heart: f32, w_base: f32) -> None:
    t = tile.load_like(top, out)
    h = tile.load_like(heart, out)
    b = tile.load_like(base, out)
    out.store(w_top * t + w_heart * h + w_base * b)


def evaporation(half_life: float) -> np.ndarray:
    hours = np.arange(HOURS, dtype=np.float32)
    return np.exp2(-hours / half_life).astype(np.float32)


@dataclass
class Accord:
    name: str
    weights: tuple[float, float, float]
    discontinued: bool = False
    tags: list[str] = field(default_factory=list)

    def launch(self, curves: dict[str, np.ndarray]) -> sk.DeviceOp:
        out = tile.zeros((HOURS,), f32).partition((TILE,))
        top, heart, base = (tile.from_numpy(curves[k]) for k in ("top", "heart", "base"))
        return blend(out, top, heart, base, *self.weights)


def longevity(profile: np.ndarray, threshold: float = 0.15) -> int:
    below = np.flatnonzero(profile < threshold)
    return int(below[0]) if below.size else HOURS


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    curves = {"top": evaporation(0.8), "heart": evaporation(5.0), "base": evaporation(30.0)}
    accords = [
        Accord("citrus cologne", (0.7, 0.2, 0.1), tags=["fresh"]),
        Accord("rose chypre", (0.2, 0.5, 0.3), tags=["floral"]),
        Accord("leather fougere", (0.1, 0.3, 0.6), discontinued=True),
        Accord("amber oud", (0.05, 0.25, 0.7), tags=["oriental", "night"]),
    ]
    ops: dict[str, sk.DeviceOp] = {}
    for accord in accords:
        if accord.discontinued:
            print(f"skipping {accord.name}")
            continue
        ops[accord.name] = accord.launch(curves)
    signature = "amber oud"
    profiles = {}
    for name, op in ops.items():
        if name == signature:
            graph = op.graph_on(stream)
            for _ in range(3):
                graph.replay()
            out = graph.value[0]
        else:
            out, *_ = op.sync_on(stream)
        profiles[name] = out.to_numpy(stream)
    for name, profile in sorted(profiles.items(), key=lambda kv: -longevity(kv[1])):
        print(f"{name:16s} opening {profile[0]:.2f}, lasts ~{longevity(profile)} h")


if __name__ == "__main__":
    main()
