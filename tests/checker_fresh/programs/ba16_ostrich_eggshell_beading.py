# fresh-expect: clean
# fresh-note: Works eggshell bead tickets with a match on Drill/Polish classes; the Polish arm pops the lot's lazy drilled op and chains the polish launch onto it with then(), so each tensor is moved exactly once and every stored op is synced in finish().
"""Ostrich eggshell bead workshop (Ghanzi): drills shell blanks, then polishes the drilled lot on a grooved stone."""
from __future__ import annotations

import collections
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BLANKS = 256
TILE = 64


@tile.kernel
def drill(bore: Partition[f32], shell: Tensor[f32], bit_mm: f32) -> None:
    s = tile.load_like(shell, bore)
    bore.store(tile.maximum(s - bit_mm, 0.0))


@tile.kernel
def polish(bead: Partition[f32], drilled: Tensor[f32], stone: Tensor[f32]) -> None:
    d = tile.load_like(drilled, bead)
    g = tile.load_like(stone, bead)
    bead.store(d * (1.0 - g * 0.1))


@dataclass
class Drill:
    lot: str
    shell: sk.DeviceOp
    bit_mm: float


@dataclass
class Polish:
    lot: str
    grit: float


class BeadWorkshop:
    def __init__(self, device: sk.Device) -> None:
        self.stream = device.new_stream()
        self.tickets: collections.deque[Drill | Polish] = collections.deque()
        self.drilled: dict[str, sk.DeviceOp] = {}
        self.finished: dict[str, sk.DeviceOp] = {}

    def order(self, lot: str, shells: np.ndarray, grit: float) -> "BeadWorkshop":
        blanks = tile.from_numpy(shells.astype(np.float32))
        self.tickets.append(Drill(lot, blanks, bit_mm=0.4))
        self.tickets.append(Polish(lot, grit))
        return self

    def _fresh(self) -> sk.DeviceOp:
        return tile.zeros((BLANKS,), f32).partition((TILE,))

    def work(self) -> None:
        while self.tickets:
            ticket = self.tickets.popleft()
            match ticket:
                case Drill(lot=lot, shell=shell, bit_mm=bit):
                    self.drilled[lot] = drill(self._fresh(), shell, bit).first()
                case Polish(lot=lot, grit=grit):
                    stone = tile.full((BLANKS,), grit, f32)
                    staged = self.drilled.pop(lot)  # the drilled lot, still lazy: polish chains onto it
                    self.finished[lot] = staged.then(
                        lambda bores, stone=stone: polish(self._fresh(), bores.unpartition(), stone)
                    ).first()
                case _:
                    raise TypeError(f"unknown ticket {ticket!r}")

    def finish(self) -> dict[str, float]:
        report = {}
        for lot in list(self.finished):
            beads = self.finished.pop(lot).sync_on(self.stream)
            report[lot] = float(beads.unpartition().to_numpy(self.stream).mean())
        return report


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(59)
    shop = BeadWorkshop(device)
    shop.order("ghanzi-a", rng.uniform(1.8, 2.2, BLANKS), grit=0.6)
    shop.order("dqae-qare", rng.uniform(1.6, 2.0, BLANKS), grit=0.3)
    shop.work()
    for lot, thickness in shop.finish().items():
        print(f"{lot:>10}: mean wall {thickness:.3f} mm")


if __name__ == "__main__":
    main()
