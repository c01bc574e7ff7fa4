# fresh-expect: clean
# fresh-note: Computes vertical and lateral g-forces per coaster element into the two split_at halves of one buffer, passes layouts through several helpers and launch_async, and reads results only after sync; the halves are disjoint by construction.
"""Roller-coaster design check: vertical and lateral g-forces along each track element against comfort limits."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

POINTS = 128
BLOCK = 64
G = 9.81


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(speed) == len(vertical)", "len(speed) == len(lateral)"))
def gforce(speed: Slice[f32], radius: Slice[f32], vertical: DisjointSlice[f32], lateral: DisjointSlice[f32],
           cos_bank: f32, sin_bank: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v0 = speed[min(i, len(speed) - 1)]
    centripetal = v0 * v0 / (radius[min(i, len(radius) - 1)] * 9.81)
    if (v := vertical.get_mut(idx)) is not None:
        v.set(cos_bank + centripetal * cos_bank)
    idx2 = thread.index_1d()
    if (lat := lateral.get_mut(idx2)) is not None:
        lat.set(centripetal * sin_bank - sin_bank)


@dataclass(frozen=True)
class TrackElement:
    name: str
    entry_speed: float
    radius: float
    bank_deg: float

    @staticmethod
    def airtime_hill(speed: float) -> "TrackElement":
        return TrackElement("airtime hill", speed, -45.0, 0.0)

    @staticmethod
    def banked_turn(speed: float, bank: float) -> "TrackElement":
        return TrackElement("banked turn", speed, 30.0, bank)


class Verdict(NamedTuple):
    element: str
    peak_vertical: float
    peak_lateral: float
    ok: bool


def _profile(element: TrackElement, stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    s = np.linspace(0.0, 1.0, POINTS)
    speed = element.entry_speed * (1.0 - 0.15 * s)
    radius = np.full(POINTS, element.radius) * (1.0 + 0.5 * np.abs(s - 0.5))
    return sk.to_device(speed.astype(np.float32), stream), sk.to_device(radius.astype(np.float32), stream)


def _launch(prepared, element: TrackElement, speed, radius, out: sk.DeviceBuffer) -> sk.DeviceOp:
    vertical, lateral = out.split_at(POINTS)
    bank = math.radians(element.bank_deg)
    return gforce.launch_async(prepared, speed, radius, vertical, lateral, math.cos(bank), math.sin(bank))


class ComfortChecker:
    VERTICAL = (-1.0, 5.0)
    LATERAL = 1.8

    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prepared = gforce.prepare(simt.LaunchConfig1D.for_len(POINTS, block=BLOCK), dev)

    def check(self, elements: list[TrackElement]) -> list[Verdict]:
        outs = [sk.zeros(2 * POINTS, f32, self.stream) for _ in elements]
        ops = []
        for element, out in zip(elements, outs):
            speed, radius = _profile(element, self.stream)
            ops.append(_launch(self.prepared, element, speed, radius, out))
        for op in ops:
            op.sync_on(self.stream)
        return [self._verdict(e, out.to_numpy(self.stream)) for e, out in zip(elements, outs)]

    def _verdict(self, element: TrackElement, both: np.ndarray) -> Verdict:
        vertical, lateral = both[:POINTS], both[POINTS:]
        ok = self.VERTICAL[0] <= vertical.min() and vertical.max() <= self.VERTICAL[1]
        ok = ok and np.abs(lateral).max() <= self.LATERAL
        return Verdict(element.name, float(vertical.max()), float(np.abs(lateral).max()), bool(ok))


def main() -> None:
    checker = ComfortChecker(sk.Device.default())
    layout = [TrackElement.airtime_hill(24.0), TrackElement.banked_turn(22.0, 60.0), TrackElement.banked_turn(27.0, 35.0)]
    for v in checker.check(layout):
        print(f"{v.element:13s} vertical {v.peak_vertical:5.2f} g, lateral {v.peak_lateral:5.2f} g -> {'OK' if v.ok else 'REDESIGN'}")


if __name__ == "__main__":
    main()
