# fresh-expect: E0382 at line 72
# fresh-known-miss: cli,mypy one op given to two ticket objects in a deque attribute, taken apart by a match on class patterns in another method: objects shared between items of a deque attribute are not followed
# fresh-note: Works Montecristi hat tickets with a match on Bleach/Plait classes; order() gives one straw DeviceOp to both the Bleach and the Plait ticket, so the Bleach arm's tile launch moves it and the Plait arm's launch uses the moved op instead of the bleached result.
"""Toquilla straw hat workshop (Montecristi): bleaches straw, then plaits the crown, one work ticket at a time."""
from __future__ import annotations
import collections
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

STRANDS = 256
TILE = 64


@tile.kernel
def bleach(out: Partition[f32], straw: Tensor[f32], sulfur: f32) -> None:
    s = tile.load_like(straw, out)
    out.store(s + (1.0 - s) * sulfur)


@tile.kernel
def plait(crown: Partition[f32], straw: Tensor[f32], weave: Tensor[f32]) -> None:
    s = tile.load_like(straw, crown)
    w = tile.load_like(weave, crown)
    crown.store(s * w + (1.0 - w) * 0.5)


@dataclass
class Bleach:
    hat: str
    straw: sk.DeviceOp
    sulfur: float


@dataclass
class Plait:
    hat: str
    straw: sk.DeviceOp
    grade: str


class Workshop:
    WEAVES = {"fino": 0.9, "superfino": 0.97, "brisa": 0.75}

    def __init__(self, device: sk.Device) -> None:
        self.stream = device.new_stream()
        self.tickets: collections.deque[Bleach | Plait] = collections.deque()
        self.bleached: dict[str, sk.DeviceOp] = {}
        self.crowns: dict[str, sk.DeviceOp] = {}

    def order(self, hat: str, fibre: np.ndarray, grade: str) -> "Workshop":
        straw = tile.from_numpy(fibre.astype(np.float32))
        self.tickets.append(Bleach(hat, straw, sulfur=0.25))
        self.tickets.append(Plait(hat, straw, grade))
        return self

    def _fresh(self) -> sk.DeviceOp:
        return tile.zeros((STRANDS,), f32).partition((TILE,))

    def work(self) -> None:
        while self.tickets:
            ticket = self.tickets.popleft()
            match ticket:
                case Bleach(hat=hat, straw=straw, sulfur=sulfur):
                    self.bleached[hat] = bleach(self._fresh(), straw, sulfur).first()
                case Plait(hat=hat, straw=straw, grade=grade):
                    weave = tile.full((STRANDS,), self.WEAVES[grade], f32)
                    self.crowns[hat] = plait(self._fresh(), straw, weave).first()
                case _:
                    raise TypeError(f"unknown ticket {ticket!r}")

    def finish(self) -> dict[str, tuple[float, float]]:
        report = {}
        for hat, crown_op in self.crowns.items():
            crown = crown_op.sync_on(self.stream).unpartition().to_numpy(self.stream)
            whiteness = self.bleached.pop(hat).sync_on(self.stream).unpartition().to_numpy(self.stream)
            report[hat] = (float(whiteness.mean()), float(crown.mean()))
        return report


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(53)
    shop = Workshop(device)
    shop.order("montecristi-17", rng.uniform(0.3, 0.6, STRANDS), "superfino")
    shop.order("cuenca-04", rng.uniform(0.2, 0.5, STRANDS), "brisa")
    shop.work()
    for hat, (white, crown) in shop.finish().items():
        print(f"{hat:>15}: whiteness {white:.3f}, crown {crown:.3f}")


if __name__ == "__main__":
    main()
