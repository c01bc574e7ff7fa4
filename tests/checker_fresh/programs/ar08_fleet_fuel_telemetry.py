# fresh-expect: E0505 at line 58
# fresh-known-miss: cli,mypy a pending launch_async op kept in an attribute list (`self.inflight`) while another branch partitions its buffer inside a method: loans of ops an attribute container keeps are not followed across methods
# fresh-note: truck fleet fuel telemetry; an over-consumption alert moves a vehicle's burn-rate buffer into a tile launch while the async launch that writes it still sits unsynced in the in-flight list.
from __future__ import annotations
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TICKS = 128


@simt.kernel
@simt.launch_contract(block=64)
def burn_rate(litres: Slice[f32], km: Slice[f32], rate: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := rate.get_mut(idx)) is not None:
        r.set(f32(100.0) * litres[i] / max(km[i], f32(0.1)))


@tile.kernel
def excess(out: Partition[f32], rate: Tensor[f32], limit: f32) -> None:
    out.store(tile.maximum(tile.load_like(rate, out) - limit, tile.zeros(out.tile_shape, f32)))


@dataclass
class Trip:
    vehicle: str
    litres: np.ndarray
    km: np.ndarray


class Depot:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.plan = burn_rate.prepare(simt.LaunchConfig1D.for_len(TICKS, block=64), dev)
        self.rates: dict[str, sk.DeviceBuffer] = {}
        self.inflight: list[tuple[str, sk.DeviceOp]] = []

    def ingest(self, trip: Trip) -> None:
        litres = sk.to_device(trip.litres.astype(np.float32), self.stream)
        km = sk.to_device(trip.km.astype(np.float32), self.stream)
        out = self.rates.setdefault(trip.vehicle, sk.zeros(TICKS, f32, self.stream))
        self.inflight.append((trip.vehicle, burn_rate.launch_async(self.plan, litres, km, out)))

    def flush(self) -> None:
        for _vehicle, op in self.inflight:
            op.sync_on(self.stream)
        self.inflight.clear()

    def overspend(self, vehicle: str, limit: float) -> float:
        parts = self.rates[vehicle].partition((32,))
        out = tile.zeros((TICKS,), f32).partition((32,))
        out, parts, _ = excess(out, parts.unpartition(), limit).sync_on(self.stream)
        self.rates[vehicle] = parts
        return float(out.to_numpy(self.stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    depot = Depot(dev, stream)
    rng = np.random.default_rng(9)
    trips = [Trip(v, rng.uniform(0.1, 0.6, TICKS), rng.uniform(0.5, 2.0, TICKS)) for v in ("T-101", "T-202", "T-303")]
    for trip in trips:
        depot.ingest(trip)
        if trip.litres.mean() > 0.36:
            print(f"{trip.vehicle}: alert, excess {depot.overspend(trip.vehicle, 30.0):.1f}")
    depot.flush()
    for vehicle, buf in depot.rates.items():
        print(f"{vehicle}: median L/100km {np.median(buf.to_numpy(stream)):.1f}")


if __name__ == "__main__":
    main()
