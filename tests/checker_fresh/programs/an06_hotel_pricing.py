# fresh-expect: clean
# fresh-note: Hotel revenue management: the scratch-buffer cache is keyed by (length, role), so the demand, booked and revenue buffers of one evaluation are three distinct buffers.
from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
ROOM_TYPES = ("standard", "deluxe", "suite", "family")
NIGHTS = 60


@simt.kernel
@simt.launch_contract(block=BLOCK)
def elastic_demand(base: Slice[f32], price: Slice[f32], ref: Slice[f32], out: DisjointSlice[f32],
                   elasticity: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(base[i] * math.exp(elasticity * math.log(price[i] / ref[i])))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def cap_bookings(demand: Slice[f32], capacity: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(min(demand[i], capacity[i]))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def room_revenue(booked: Slice[f32], price: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(booked[i] * price[i])


@contextmanager
def timed(label: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        print(f"{label}: {time.perf_counter() - start:.3f}s")


class Workspace:
    """Scratch buffers reused across the many evaluations of a price search."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._pool: dict[tuple[int, str], sk.DeviceBuffer] = {}
        self.roles: dict[tuple[int, str], list[str]] = {}

    def scratch(self, n: int, role: str) -> sk.DeviceBuffer:
        key = (n, role)
        if key not in self._pool:
            self._pool[key] = sk.zeros(n, f32, self.stream)
            self.roles[key] = []
        self.roles[key].append(role)
        return self._pool[key]


@dataclass
class Property:
    base_demand: np.ndarray  # (room types, nights), rooms requested at the reference rate
    reference_rate: np.ndarray
    capacity: np.ndarray
    elasticity: float = -1.4


class PricingEngine:
    def __init__(self, prop: Property, device: sk.Device) -> None:
        self.stream = device.new_stream()
        self.shape = prop.base_demand.shape
        self.n = prop.base_demand.size
        self.elasticity = prop.elasticity
        self.base = sk.to_device(prop.base_demand.ravel().astype(np.float32), self.stream)
        self.ref = sk.to_device(prop.reference_rate.ravel().astype(np.float32), self.stream)
        self.capacity = sk.to_device(prop.capacity.ravel().astype(np.float32), self.stream)
        self.price = sk.zeros(self.n, f32, self.stream)
        self.ws = Workspace(self.stream)
        cfg = simt.LaunchConfig1D.for_len(self.n, block=BLOCK)
        self.plans = {k.__name__: k.prepare(cfg, device) for k in (elastic_demand, cap_bookings, room_revenue)}

    def revenue(self, prices: np.ndarray) -> np.ndarray:
        self.price.copy_from_numpy(prices.ravel().astype(np.float32), self.stream)
        demand = self.ws.scratch(self.n, "demand")
        booked = self.ws.scratch(self.n, "booked")
        rev = self.ws.scratch(self.n, "revenue")
        elastic_demand.launch(self.plans["elastic_demand"], self.stream, self.base, self.price, self.ref, demand,
                              self.elasticity)
        cap_bookings.launch(self.plans["cap_bookings"], self.stream, demand, self.capacity, booked)
        room_revenue.launch(self.plans["room_revenue"], self.stream, booked, self.price, rev)
        return rev.to_numpy(self.stream).reshape(self.shape)

    def best_multipliers(self, ref: np.ndarray, grid: list[float]) -> np.ndarray:
        totals = np.stack([self.revenue(ref * m).sum(axis=1) for m in grid])  # (candidates, room types)
        return np.asarray(grid)[totals.argmax(axis=0)]


def main() -> None:
    rng = np.random.default_rng(3)
    shape = (len(ROOM_TYPES), NIGHTS)
    weekend = (np.arange(NIGHTS) % 7 >= 5).astype(np.float32)
    prop = Property(
        base_demand=rng.uniform(20, 40, shape) * (1 + 0.5 * weekend),
        reference_rate=np.array([120.0, 180.0, 320.0, 210.0])[:, None] * np.ones(shape),
        capacity=np.array([40.0, 25.0, 6.0, 12.0])[:, None] * np.ones(shape),
    )
    engine = PricingEngine(prop, sk.Device.cpu())
    grid = [0.8, 0.9, 1.0, 1.1, 1.25, 1.5]
    with timed("price search"):
        best = engine.best_multipliers(prop.reference_rate, grid)
    check = prop.base_demand * (1.1) ** prop.elasticity
    got = engine.revenue(prop.reference_rate * 1.1)
    np.testing.assert_allclose(got, np.minimum(check, prop.capacity) * prop.reference_rate * 1.1, rtol=1e-4)
    for room, m in zip(ROOM_TYPES, best):
        print(f"{room:>9}: best rate multiplier {m:.2f}")


if __name__ == "__main__":
    main()
