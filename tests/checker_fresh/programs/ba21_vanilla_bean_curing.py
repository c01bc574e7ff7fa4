# fresh-expect: E0502 at line 58
# fresh-known-miss: cli,mypy racks built in __init__ as [first] + [sk.zeros(...)] * len(...), one buffer repeated, paired by itertools.pairwise in another method: a list attribute built by concatenation and repetition is not followed
# fresh-note: Cures vanilla pods through a fixed schedule with one rack per step chained by itertools.pairwise; the racks after the first are built as [sk.zeros(...)] * len(SCHEDULE), one buffer repeated, so from the second step on the pair (before, after) is the same buffer read and written by one launch.
"""Vanilla curing shed (Sava region): scalds green pods, then sweats, sun-dries and conditions them rack by rack."""
from __future__ import annotations
import itertools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PODS = 320


@simt.kernel
@simt.launch_contract(block=64)
def cure_step(before: Slice[f32], after: DisjointSlice[f32], moisture_loss: f32, vanillin_gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (pod := after.get_mut(idx)) is not None:
        pod.set(before[i] * (1.0 - moisture_loss) + vanillin_gain)


@dataclass(frozen=True)
class Step:
    name: str
    days: int
    moisture_loss: float
    vanillin_gain: float


class CuringShed:
    """Keeps one rack per curing step so every intermediate state can be inspected afterwards."""

    __slots__ = ("stream", "prepared", "racks", "journal")

    SCHEDULE: ClassVar[tuple[Step, ...]] = (
        Step("échaudage", 1, 0.05, 0.00),
        Step("étuvage", 2, 0.12, 0.02),
        Step("séchage au soleil", 14, 0.30, 0.05),
        Step("affinage", 30, 0.08, 0.03),
    )

    def __init__(self, device: sk.Device, green_pods: np.ndarray) -> None:
        self.stream = device.new_stream()
        n = len(green_pods)
        self.prepared = cure_step.prepare(simt.LaunchConfig1D.for_len(n, block=64), device)
        first = sk.to_device(green_pods.astype(np.float32), self.stream)
        self.racks = [first] + [sk.zeros(n, f32, self.stream)] * len(self.SCHEDULE)
        self.journal: list[str] = []

    def cure(self) -> "CuringShed":
        for step, (before, after) in zip(self.SCHEDULE, itertools.pairwise(self.racks)):
            cure_step.launch(self.prepared, self.stream, before, after, step.moisture_loss, step.vanillin_gain)
            self.journal.append(f"day+{step.days:<3} {step.name}")
        return self

    def profile(self) -> list[float]:
        return [float(rack.to_numpy(self.stream).mean()) for rack in self.racks]


def grade(weight: float) -> str:
    if weight > 0.62:
        return "gourmet (noire)"
    if weight > 0.5:
        return "TK rouge"
    return "extraction"


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(79)
    for grower in ("Antalaha", "Sambava"):
        shed = CuringShed(device, rng.uniform(0.9, 1.1, PODS)).cure()
        stages = shed.profile()
        print(grower, "; ".join(shed.journal))
        print("  ", " -> ".join(f"{v:.3f}" for v in stages), "=>", grade(stages[-1]))


if __name__ == "__main__":
    main()
