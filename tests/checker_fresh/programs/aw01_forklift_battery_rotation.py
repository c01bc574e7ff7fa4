# fresh-expect: E0499 at line 84
# fresh-note: A forklift battery ledger packs every truck's cells into one buffer; its region() method adds a sense cell past the end of balancing packs, so rotating FL-03 with the balancing FL-02 passes two overlapping views as the two DisjointSlice outputs.
"""Forklift fleet battery rotation: split dock-charger readings into the incoming and outgoing packs' ledgers."""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 64
CUTOFF = 3.55


@simt.kernel
@simt.launch_contract(block=64)
def split_charge(readings: Slice[f32], healthy: DisjointSlice[f32], degraded: DisjointSlice[f32], cutoff: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = readings[i]
    if (h := healthy.get_mut(idx)) is not None:
        if v >= cutoff:
            h.set(v)
        else:
            h.set(f32(0.0))
    jdx = thread.index_1d()
    if (d := degraded.get_mut(jdx)) is not None:
        if v < cutoff:
            d.set(v)
        else:
            d.set(f32(0.0))


@dataclass(frozen=True)
class PackSpec:
    truck: str
    cells: int
    balancing: bool = False


@dataclass
class PackSlot:
    spec: PackSpec
    offset: int
    cycles: int = 0
    history: list[float] = field(default_factory=list)


class ChargeLedger:
    """Every pack's per-cell charge, packed back to back in one device buffer."""

    def __init__(self, fleet: list[PackSpec], stream: sk.Stream) -> None:
        self.stream = stream
        self.slots: dict[str, PackSlot] = {}
        offset = 0
        for spec in fleet:
            self.slots[spec.truck] = PackSlot(spec, offset)
            offset += spec.cells
        self.buf = sk.zeros(offset, f32, stream)

    def region(self, truck: str) -> sk.DeviceBuffer:
        slot = self.slots[truck]
        # balancing packs report their sense cell after the last storage cell
        stop = slot.offset + slot.spec.cells + (1 if slot.spec.balancing else 0)
        return self.buf[slot.offset : stop]

    def state_of_charge(self, truck: str) -> float:
        values = self.region(truck).to_numpy(self.stream)
        return float(values[values > 0].mean()) if (values > 0).any() else 0.0


class DockCharger:
    def __init__(self, ledger: ChargeLedger, dev: sk.Device) -> None:
        self.ledger = ledger
        self.prepared = split_charge.prepare(simt.LaunchConfig1D.for_len(CELLS, block=64), dev)

    def rotate(self, incoming: str, outgoing: str, readings: sk.DeviceBuffer) -> None:
        fresh, spent = self.ledger.region(incoming), self.ledger.region(outgoing)
        split_charge.launch(self.prepared, self.ledger.stream, readings, fresh, spent, CUTOFF)
        for truck in (incoming, outgoing):
            self.ledger.slots[truck].cycles += 1


def dock_readings(seed: int, stream: sk.Stream) -> sk.DeviceBuffer:
    rng = np.random.default_rng(seed)
    return sk.to_device((3.3 + 0.5 * rng.random(CELLS)).astype(np.float32), stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    fleet = [PackSpec("FL-01", CELLS), PackSpec("FL-02", CELLS, balancing=True), PackSpec("FL-03", CELLS),
             PackSpec("FL-04", CELLS)]
    ledger = ChargeLedger(fleet, stream)
    charger = DockCharger(ledger, dev)
    shift_order = sorted(ledger.slots, reverse=True)  # last parked, first rotated
    for seed, (incoming, outgoing) in enumerate(itertools.pairwise(shift_order)):
        charger.rotate(incoming, outgoing, dock_readings(seed, stream))
        print(f"{incoming}->{outgoing}: soc {ledger.state_of_charge(incoming):.3f}")
    print({t: s.cycles for t, s in ledger.slots.items()})


if __name__ == "__main__":
    main()
