# fresh-expect: clean
# fresh-note: Voices a didgeridoo bore through match-dispatched jobs; the prepared-launch registry is built per Step from the same KERNEL_FOR map the launches use, and each pass ping-pongs between two distinct bore buffers.
"""Yidaki (didgeridoo) workshop: voices termite-hollowed bores by reaming, waxing and sanding bore profiles."""
from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BORE_STATIONS = 300


@simt.kernel
@simt.launch_contract(block=100)
def ream(bore: Slice[f32], voiced: DisjointSlice[f32], cut_mm: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := voiced.get_mut(idx)) is not None:
        cell.set(bore[i] + cut_mm)


@simt.kernel
@simt.launch_contract(block=100)
def wax_mouthpiece(bore: Slice[f32], voiced: DisjointSlice[f32], ring_mm: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := voiced.get_mut(idx)) is not None:
        cell.set(bore[i] - ring_mm if i < 12 else bore[i])


@simt.kernel
@simt.launch_contract(block=100)
def sand(bore: Slice[f32], voiced: DisjointSlice[f32], grit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := voiced.get_mut(idx)) is not None:
        left = bore[i - 1] if i > 0 else bore[i]
        right = bore[i + 1] if i + 1 < len(bore) else bore[i]
        cell.set(bore[i] * (1.0 - grit) + (left + right) * 0.5 * grit)


class Step(enum.Enum):
    REAM = "ream"
    WAX = "wax"
    SAND = "sand"


KERNEL_FOR = {Step.REAM: ream, Step.WAX: wax_mouthpiece, Step.SAND: sand}


@dataclass(frozen=True)
class Ream:
    millimetres: float


@dataclass(frozen=True)
class Wax:
    ring: float


@dataclass(frozen=True)
class Sand:
    grit: float


class Workshop:
    def __init__(self, device: sk.Device, bore: np.ndarray) -> None:
        self.stream = device.new_stream()
        n = len(bore)
        cfg = simt.LaunchConfig1D.for_len(n, block=100)
        self.plans = {step: KERNEL_FOR[step].prepare(cfg, device) for step in Step}
        self.bore = sk.to_device(bore.astype(np.float32), self.stream)
        self.spare = sk.zeros(n, f32, self.stream)
        self.passes: list[str] = []

    def _apply(self, step: Step, amount: float) -> None:
        KERNEL_FOR[step].launch(self.plans[step], self.stream, self.bore, self.spare, amount)
        self.bore, self.spare = self.spare, self.bore
        self.passes.append(step.value)

    def handle(self, job: Ream | Wax | Sand) -> "Workshop":
        match job:
            case Ream(millimetres=mm):
                self._apply(Step.REAM, mm)
            case Wax(ring=ring):
                self._apply(Step.WAX, ring)
            case Sand(grit=grit):
                self._apply(Step.SAND, grit)
            case _:
                raise TypeError(f"unknown job {job!r}")
        return self

    def drone_hz(self) -> float:
        radius = self.bore.to_numpy(self.stream).mean() / 1000.0
        length = 1.4
        return 343.0 / (4.0 * (length + 0.6 * radius))


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(19)
    shop = Workshop(device, rng.uniform(30.0, 45.0, BORE_STATIONS))
    shop.handle(Ream(1.5)).handle(Sand(0.3)).handle(Wax(4.0)).handle(Sand(0.1))
    print("passes:", " -> ".join(shop.passes))
    print(f"drone: {shop.drone_hz():.1f} Hz")


if __name__ == "__main__":
    main()
