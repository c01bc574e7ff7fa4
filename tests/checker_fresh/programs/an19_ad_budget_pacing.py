# fresh-expect: E0505 at line 73
# fresh-note: Ad-campaign budget pacing on a planner device with bids served from a second device: each region's multiplier buffer is shipped with `.to()` inside the launch loop, while its pace launch_async op is still pending in `ops` (synced only in the `finally`).
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
MIN_MULT, MAX_BOOST = 0.2, 3.0


@simt.kernel
@simt.launch_contract(block=BLOCK)
def pace(spend: Slice[f32], budget: Slice[f32], mult: DisjointSlice[f32], day_fraction: f32, boost: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (m := mult.get_mut(idx)) is not None:
        if spend[i] >= budget[i]:
            m.set(f32(0.0))  # budget exhausted: stop bidding
        else:
            ideal = budget[i] * day_fraction
            m.set(min(max(ideal / max(spend[i], f32(1.0)), f32(MIN_MULT)), boost))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def apply_bids(base_bid: Slice[f32], mult: Slice[f32], bid: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (b := bid.get_mut(idx)) is not None:
        b.set(base_bid[i] * mult[i])


@dataclass
class RegionBook:
    spend: sk.DeviceBuffer
    budget: sk.DeviceBuffer
    size: int


class Pacer:
    def __init__(self, planner: sk.Device, serving: sk.Device) -> None:
        self.device, self.serving = planner, serving
        self.stream = planner.new_stream()
        self.serving_stream = serving.new_stream()
        self.books: dict[str, RegionBook] = {}
        self.plans: dict[int, simt.PreparedLaunch] = {}

    def add_region(self, region: str, spend: np.ndarray, budget: np.ndarray) -> None:
        s = self.stream
        self.books[region] = RegionBook(sk.to_device(spend.astype(np.float32), s),
                                        sk.to_device(budget.astype(np.float32), s), len(spend))

    def plan_for(self, n: int) -> simt.PreparedLaunch:
        if n not in self.plans:
            self.plans[n] = pace.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.device)
        return self.plans[n]

    def tick(self, day_fraction: float) -> dict[str, sk.DeviceBuffer]:
        ops = []
        staged: dict[str, sk.DeviceBuffer] = {}
        try:
            for region, book in self.books.items():
                mult = sk.zeros(book.size, f32, self.stream)
                ops.append(pace.launch_async(self.plan_for(book.size), book.spend, book.budget, mult,
                                             day_fraction, MAX_BOOST))
                staged[region] = mult.to(self.serving, self.serving_stream)
        finally:
            for op in ops:
                op.sync_on(self.stream)
        return staged


class BidServer:
    def __init__(self, device: sk.Device, stream: sk.Stream, base_bids: dict[str, np.ndarray]) -> None:
        self.device, self.stream = device, stream
        self.base = {r: sk.to_device(b.astype(np.float32), stream) for r, b in base_bids.items()}

    def bids(self, region: str, mult: sk.DeviceBuffer) -> np.ndarray:
        base = self.base[region]
        out = sk.zeros(len(base), f32, self.stream)
        prepared = apply_bids.prepare(simt.LaunchConfig1D.for_len(len(base), block=BLOCK), self.device)
        apply_bids.launch(prepared, self.stream, base, mult, out)
        return out.to_numpy(self.stream)


def main() -> None:
    rng = np.random.default_rng(31)
    planner, serving = sk.Device.cpu(0), sk.Device.cpu(1)
    pacer = Pacer(planner, serving)
    base_bids = {}
    for region, n in (("emea", 40), ("apac", 25), ("amer", 70)):
        budget = rng.uniform(500, 5000, n)
        pacer.add_region(region, spend=budget * rng.uniform(0.1, 1.1, n), budget=budget)
        base_bids[region] = rng.uniform(0.2, 2.5, n)
    server = BidServer(serving, pacer.serving_stream, base_bids)
    multipliers = pacer.tick(day_fraction=0.5)
    for region, mult in multipliers.items():
        bids = server.bids(region, mult)
        paused = int((mult.to_numpy(pacer.serving_stream) == 0).sum())
        assert bids.shape == base_bids[region].shape and (bids <= base_bids[region] * MAX_BOOST + 1e-5).all()
        print(f"{region}: mean bid {bids.mean():.3f}, {paused} campaigns paused")


if __name__ == "__main__":
    main()
