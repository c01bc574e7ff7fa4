# fresh-expect: clean
# fresh-note: vaccine cold-chain logger; a shipment's temperature buffer is moved into a tile potency launch and the handed-back buffer is stored back into the dataclass before the excursion report reads it, with the potency tensor lent to SIMT through as_buffer.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

READINGS = 144  # one reading every 10 minutes for a day


@tile.kernel
def potency_loss(potency: Partition[f32], temps: Tensor[f32], rate: f32) -> None:
    heat = tile.maximum(tile.load_like(temps, potency) - 8.0, tile.zeros(potency.tile_shape, f32))
    potency.store(tile.exp(-rate * heat))


@simt.kernel
@simt.launch_contract(block=48)
def below_spec(potency: Slice[f32], flags: DisjointSlice[f32], floor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (f := flags.get_mut(idx)) is not None:
        f.set(f32(1.0) if potency[i] < floor else f32(0.0))


@dataclass
class Shipment:
    lot: str
    temps: sk.DeviceBuffer
    destination: str


class ColdChainAuditor:
    def __init__(self, dev: sk.Device, stream: sk.Stream, rate: float = 0.02) -> None:
        self.stream = stream
        self.rate = rate
        self.plan = below_spec.prepare(simt.LaunchConfig1D.for_len(READINGS, block=48), dev)

    def audit(self, shipment: Shipment, floor: float = 0.95) -> tuple[int, float]:
        part = tile.zeros((READINGS,), f32).partition((48,))
        part, shipment.temps, _ = potency_loss(part, shipment.temps, self.rate).sync_on(self.stream)
        potency = part.unpartition()
        flags = sk.zeros(READINGS, f32, self.stream)
        below_spec.launch(self.plan, self.stream, sk.as_buffer(potency), flags, floor)
        return int(flags.to_numpy(self.stream).sum()), float(potency.to_numpy(self.stream).min())


def load_shipments(stream: sk.Stream) -> list[Shipment]:
    rng = np.random.default_rng(30)
    base = rng.normal(5.0, 0.7, (3, READINGS))
    base[1, 60:75] += 7.5  # a door left open at the hub
    return [
        Shipment(f"LOT-{k:03d}", sk.to_device(base[k].astype(np.float32), stream), dest)
        for k, dest in enumerate(["Lyon", "Porto", "Graz"])
    ]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    auditor = ColdChainAuditor(dev, stream)
    for shipment in load_shipments(stream):
        bad, worst = auditor.audit(shipment)
        peak = float(shipment.temps.to_numpy(stream).max())
        verdict = "QUARANTINE" if bad else "release"
        print(f"{shipment.lot} -> {shipment.destination}: peak {peak:.1f} C, worst potency {worst:.3f}, {verdict}")


if __name__ == "__main__":
    main()
