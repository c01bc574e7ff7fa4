# fresh-expect: clean
# fresh-note: Runs quinoa wash stages over named tanks; a stage without a distinct sink reads its tank and writes a freshly allocated buffer that then takes the tank's name, so no launch reads and writes one buffer.
"""Quinoa saponin washing line: each wash stage reads one named tank profile and writes the next, chained."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

GRAIN_LOTS = 320


@simt.kernel
@simt.launch_contract(block=64)
def leach(tank: Slice[f32], agitation: Slice[f32], washed: DisjointSlice[f32], rate: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lot := washed.get_mut(idx)) is not None:
        remaining = tank[i] * (1.0 - rate * agitation[i % len(agitation)])
        lot.set(max(remaining, 0.0))


@dataclass(frozen=True)
class WashStage:
    name: str
    source: str
    rate: float
    paddles: tuple[float, ...]
    sink: Optional[str] = None  # None: the stage refreshes its own tank

    @property
    def in_place(self) -> bool:
        return self.sink is None or self.sink == self.source


class WashLine:
    """Owns the saponin profile of every tank; tanks are addressed by name."""

    __slots__ = ("stream", "n", "_tanks", "_plan", "history")

    TANKS = ("soak", "scrub", "rinse")

    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        self.n = n
        self._tanks: dict[str, sk.DeviceBuffer] = {name: sk.zeros(n, f32, self.stream) for name in self.TANKS}
        self._plan = leach.prepare(simt.LaunchConfig1D.for_len(n, block=64), device)
        self.history: list[str] = []

    def tank(self, name: str) -> sk.DeviceBuffer:
        if name not in self._tanks:
            raise KeyError(f"no tank {name!r}; known: {sorted(self._tanks)}")
        return self._tanks[name]

    def load_harvest(self, saponin: np.ndarray) -> "WashLine":
        self._tanks["soak"] = sk.to_device(saponin.astype(np.float32), self.stream)
        return self

    def run(self, stage: WashStage) -> "WashLine":
        paddles = sk.to_device(np.asarray(stage.paddles, dtype=np.float32), self.stream)
        source = self.tank(stage.source)
        if stage.in_place:
            # a refresh reads the old profile and writes a new tank, which then takes the old one's name
            target = sk.zeros(self.n, f32, self.stream)
        else:
            target = self.tank(stage.sink or stage.source)
        leach.launch(self._plan, self.stream, source, paddles, target, stage.rate)
        self._tanks[stage.sink or stage.source] = target
        self.history.append(f"{stage.name}:{stage.source}->{stage.sink or stage.source}")
        return self

    def residue(self) -> dict[str, float]:
        return {name: float(buf.to_numpy(self.stream).sum()) for name, buf in self._tanks.items()}


STAGES = [
    WashStage("first-soak", source="soak", sink="scrub", rate=0.35, paddles=(1.0, 0.6)),
    WashStage("friction", source="scrub", rate=0.5, paddles=(0.9, 0.9, 0.4)),
    WashStage("cold-rinse", source="scrub", sink="rinse", rate=0.25, paddles=(0.3,)),
    WashStage("final-rinse", source="rinse", sink="rinse", rate=0.2, paddles=(0.5, 0.2)),
]


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(11)
    for batch in range(2):
        line = WashLine(device, GRAIN_LOTS).load_harvest(rng.uniform(0.5, 1.5, GRAIN_LOTS))
        for stage in STAGES:
            line.run(stage)
        residue = line.residue()
        assert residue["rinse"] < residue["soak"], residue
        print(f"batch {batch}: {' '.join(line.history)}")
        print({name: round(v, 2) for name, v in residue.items()})


if __name__ == "__main__":
    main()
