# fresh-expect: E0499 at line 88
# fresh-known-miss: cli,mypy an arena whose `alloc` sets `self.top = stop - start` (not `stop`) hands out overlapping views; the checker follows bump allocators that advance their offset, not this one
# fresh-note: Multi-warehouse inventory policy whose per-day work buffers come from a bump-allocator arena; the arena's `alloc` sets `self.top = stop - start` instead of advancing it, so the reorder and backlog views it hands out overlap and the replenish launch gets one region as two mutable outputs.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def replenish(stock: Slice[f32], demand: Slice[f32], reorder: DisjointSlice[f32],
              backlog: DisjointSlice[f32], reorder_point: f32, order_up_to: f32) -> None:
    i = thread.index_1d().get()
    if i < len(stock):
        on_hand = stock[i] - demand[i]
        if (r := reorder.get_mut(thread.index_1d())) is not None:
            r.set(order_up_to - on_hand if on_hand < reorder_point else f32(0.0))
        if (b := backlog.get_mut(thread.index_1d())) is not None:
            b.set(max(-on_hand, f32(0.0)))


@simt.kernel
@simt.launch_contract(block=128)
def ship(stock: Slice[f32], demand: Slice[f32], arrivals: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(stock[i] - demand[i], f32(0.0)) + arrivals[i])


class Arena:
    """One device allocation carved into per-day work buffers."""

    def __init__(self, capacity: int, stream: sk.Stream) -> None:
        self.buf = sk.zeros(capacity, f32, stream)
        self.top = 0

    def alloc(self, size: int) -> sk.DeviceBuffer:
        start = self.top
        stop = start + size
        if stop > len(self.buf):
            raise MemoryError(f"arena exhausted: {stop} > {len(self.buf)}")
        self.top = stop - start
        return self.buf[start:stop]

    def reset(self) -> None:
        self.top = 0


@dataclass
class Policy:
    reorder_point: float
    order_up_to: float
    lead_time: int


class Network:
    def __init__(self, warehouses: int, skus: int, dev: sk.Device) -> None:
        self.n = warehouses * skus
        self.stream = dev.new_stream()
        rng = np.random.default_rng(12)
        self.stock = sk.to_device(rng.uniform(20, 60, self.n).astype(np.float32), self.stream)
        self.next_stock = sk.zeros(self.n, f32, self.stream)
        self.arena = Arena(4 * self.n, self.stream)
        cfg = simt.LaunchConfig1D.for_len(self.n, block=128)
        self.replenish_launch = replenish.prepare(cfg, dev)
        self.ship_launch = ship.prepare(cfg, dev)
        self.pipeline: list[np.ndarray] = []

    def day(self, demand_host: np.ndarray, policy: Policy) -> tuple[float, float]:
        self.arena.reset()
        demand = self.arena.alloc(self.n)
        demand.copy_from_numpy(demand_host, self.stream)
        arrivals = self.arena.alloc(self.n)
        if len(self.pipeline) >= policy.lead_time:
            arrivals.copy_from_numpy(self.pipeline.pop(0), self.stream)
        else:
            arrivals.copy_from_numpy(np.zeros(self.n, np.float32), self.stream)
        reorder = self.arena.alloc(self.n)
        backlog = self.arena.alloc(self.n)
        replenish.launch(self.replenish_launch, self.stream, self.stock, demand, reorder, backlog,
                         policy.reorder_point, policy.order_up_to)
        ship.launch(self.ship_launch, self.stream, self.stock, demand, arrivals, self.next_stock)
        self.stock, self.next_stock = self.next_stock, self.stock
        orders = reorder.to_numpy(self.stream)
        self.pipeline.append(orders)
        return float(orders.sum()), float(backlog.to_numpy(self.stream).sum())


def main() -> None:
    net = Network(warehouses=4, skus=96, dev=sk.Device.cpu())
    policy = Policy(reorder_point=25.0, order_up_to=70.0, lead_time=2)
    rng = np.random.default_rng(0)
    for d in range(5):
        demand = rng.poisson(8.0, net.n).astype(np.float32)
        ordered, short = net.day(demand, policy)
        print(f"day {d}: ordered {ordered:.0f} units, backlog {short:.0f}")


if __name__ == "__main__":
    main()
