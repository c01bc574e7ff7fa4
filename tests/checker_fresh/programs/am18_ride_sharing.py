# fresh-expect: clean
# fresh-note: ride-hailing surge pricing: request counts are binned on an ingest device, moved to the pricing device with .to(), and a surge launch_async is parked per city under a "<city>/surge" key; settle() pops the same key, so the fare launch reads the surge buffer only after its op ran.
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

ZONES = 48
CAP = 3.0
CITIES = ("lisbon", "porto")


@simt.kernel
@simt.launch_contract(block=64)
def bin_requests(zone_of: Slice[i32], counts: AtomicSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i < len(zone_of):
        counts.fetch_add(zone_of[i], i32(1))


@simt.kernel
@simt.launch_contract(block=64)
def surge(demand: Slice[i32], supply: Slice[i32], out: DisjointSlice[f32], cap: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        ratio = f32(demand[i]) / f32(supply[i] + 1)
        o.set(min(max(ratio, f32(1.0)), cap))


@simt.kernel
@simt.launch_contract(block=64)
def price(multiplier: Slice[f32], base: Slice[f32], fares: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := fares.get_mut(idx)) is not None:
        o.set(base[i] * multiplier[i])


@dataclass
class Ingest:
    stream: sk.Stream
    prepared: dict = field(default_factory=dict)

    def demand(self, zone_ids: np.ndarray) -> sk.DeviceBuffer:
        n = len(zone_ids)
        if n not in self.prepared:
            self.prepared[n] = bin_requests.prepare(simt.LaunchConfig1D.for_len(n, block=64), self.stream.device)
        counts = sk.zeros(ZONES, i32, self.stream)
        bin_requests.launch(self.prepared[n], self.stream, sk.to_device(zone_ids, self.stream), counts)
        return counts


class PricingDesk:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        cfg = simt.LaunchConfig1D.for_len(ZONES, block=64)
        self.prep_surge = surge.prepare(cfg, stream.device)
        self.prep_price = price.prepare(cfg, stream.device)
        self.multiplier = {city: sk.zeros(ZONES, f32, stream) for city in CITIES}
        self.pending: dict[str, sk.DeviceOp] = {}

    @staticmethod
    def _key(city: str) -> str:
        return f"{city}/surge"

    def refresh(self, city: str, demand: sk.DeviceBuffer, supply: sk.DeviceBuffer) -> None:
        self.settle(city)
        op = surge.launch_async(self.prep_surge, demand, supply, self.multiplier[city], CAP)
        self.pending[self._key(city)] = op

    def settle(self, city: str) -> None:
        op = self.pending.pop(self._key(city), None)
        if op is not None:
            op.sync_on(self.stream)

    def quote(self, city: str, base: sk.DeviceBuffer) -> np.ndarray:
        self.settle(city)
        fares = sk.zeros(ZONES, f32, self.stream)
        price.launch(self.prep_price, self.stream, self.multiplier[city], base, fares)
        return fares.to_numpy(self.stream)

    def close(self) -> None:
        for op in self.pending.values():
            op.sync_on(self.stream)
        self.pending.clear()


def main() -> None:
    ingest_dev, pricing_dev = sk.Device.cpu(0), sk.Device.cpu(1)
    ingest = Ingest(ingest_dev.new_stream())
    desk = PricingDesk(pricing_dev.new_stream())
    rng = np.random.default_rng(8)
    base = sk.to_device(rng.uniform(4.0, 9.0, ZONES).astype(np.float32), desk.stream)
    quotes = {}
    for city in CITIES:
        hot = rng.choice(ZONES, 5, replace=False)
        zone_ids = np.concatenate([rng.integers(0, ZONES, 300), np.repeat(hot, 40)]).astype(np.int32)
        demand = ingest.demand(zone_ids).to(pricing_dev, desk.stream)
        supply = sk.to_device(rng.integers(2, 12, ZONES).astype(np.int32), desk.stream)
        desk.refresh(city, demand, supply)
        quotes[city] = desk.quote(city, base)
    desk.close()
    base_np = base.to_numpy(desk.stream)
    for city, fares in quotes.items():
        ratio = fares / base_np
        assert np.all((ratio >= 1.0 - 1e-6) & (ratio <= CAP + 1e-6)), city
        print(f"{city}: {int((ratio > 1.0).sum())} zones surging, max x{ratio.max():.2f}")


if __name__ == "__main__":
    main()
