# fresh-expect: E0308 at line 83
# fresh-known-miss: cli,mypy prepared launches built by zip(Pan, kernels) in another order than the module's kernel table, both looked up under one non-literal key: the kernel and the launch are not paired per key
# fresh-note: Runs salt-pan work orders dispatched by a match on order classes; the prepared-launch registry zips the Pan enum (CRUST, BRINE, FLAKE) with kernels listed as (rake, skim, evaporate), so the BRINE order launches evaporate with the PreparedLaunch branded for skim.
"""Salar de Uyuni salt cooperative: rakes crust, evaporates brine and skims flake salt on pan grids per work order."""
from __future__ import annotations
import enum
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PAN_CELLS = 400


@simt.kernel
@simt.launch_contract(block=80)
def rake(salt: Slice[f32], harvested: DisjointSlice[f32], depth: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := harvested.get_mut(idx)) is not None:
        cell.set(min(salt[i], depth))


@simt.kernel
@simt.launch_contract(block=80)
def evaporate(brine: Slice[f32], crystals: DisjointSlice[f32], sun_hours: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := crystals.get_mut(idx)) is not None:
        cell.set(brine[i] * (1.0 - 0.9 ** sun_hours))


@simt.kernel
@simt.launch_contract(block=80)
def skim(surface: Slice[f32], flakes: DisjointSlice[f32], threshold: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := flakes.get_mut(idx)) is not None:
        cell.set(surface[i] - threshold if surface[i] > threshold else 0.0)


class Pan(enum.Enum):
    CRUST = "crust"
    BRINE = "brine"
    FLAKE = "flake"


KERNEL_FOR = {Pan.CRUST: rake, Pan.BRINE: evaporate, Pan.FLAKE: skim}


@dataclass(frozen=True)
class Rake:
    pan: Pan
    depth_cm: float


@dataclass(frozen=True)
class Skim:
    pan: Pan
    threshold: float


@dataclass(frozen=True)
class Evaporate:
    pan: Pan
    sun_hours: float


class Cooperative:
    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        cfg = simt.LaunchConfig1D.for_len(n, block=80)
        self.plans = {pan: k.prepare(cfg, device) for pan, k in zip(Pan, (rake, skim, evaporate))}
        rng = np.random.default_rng(13)
        self.surface = sk.to_device(rng.uniform(0.0, 12.0, n).astype(np.float32), self.stream)
        self.output = sk.zeros(n, f32, self.stream)
        self.ledger: list[tuple[str, float]] = []

    def _run(self, pan: Pan, param: float) -> float:
        KERNEL_FOR[pan].launch(self.plans[pan], self.stream, self.surface, self.output, param)
        return float(self.output.to_numpy(self.stream).sum())

    def handle(self, order: Rake | Skim | Evaporate) -> "Cooperative":
        match order:
            case Rake(pan=pan, depth_cm=depth):
                tonnes = self._run(pan, depth)
            case Evaporate(pan=pan, sun_hours=hours):
                tonnes = self._run(pan, hours)
            case Skim(pan=pan, threshold=t):
                tonnes = self._run(pan, t)
            case _:
                raise TypeError(f"unknown work order {order!r}")
        self.ledger.append((type(order).__name__.lower(), tonnes))
        return self


def main() -> None:
    device = sk.Device.default()
    coop = Cooperative(device, PAN_CELLS)
    orders = [Rake(Pan.CRUST, 4.0), Evaporate(Pan.BRINE, 6.0), Skim(Pan.FLAKE, 9.5)]
    for order in orders:
        coop.handle(order)
    for task, tonnes in coop.ledger:
        print(f"{task:>10}: {tonnes:8.1f}")


if __name__ == "__main__":
    main()
