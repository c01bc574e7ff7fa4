# fresh-expect: E0382 at line 53
# fresh-note: Bus fare capping; the raw-fares buffer is handed to the capping tile launch as a plain input, which moves it, and the handed-back buffer is discarded, so the savings report launches with the moved `self.fares`.
"""Daily fare capping for contactless bus riders, and what the cap saved them."""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

RIDERS = 512
TILE = 128
DAILY_CAP = {"adult": 7.50, "concession": 3.75}


@tile.kernel
def apply_cap(capped: Partition[f32], fares: Tensor[f32], cap: f32) -> None:
    capped.store(tile.minimum(tile.load_like(fares, capped), cap))


@simt.kernel
@simt.launch_contract(block=128)
def cap_savings(fares: Slice[f32], capped: Slice[f32], saved: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (s := saved.get_mut(idx)) is not None:
        s.set(fares[i] - capped[i])


class FareDay:
    def __init__(self, dev: sk.Device, stream: sk.Stream, tier: str, taps: np.ndarray) -> None:
        self.stream = stream
        self.tier = tier
        self.fares = sk.to_device(taps.sum(axis=1).astype(np.float32), stream)
        self.capped: sk.tile.Tensor | None = None
        self.prepared = cap_savings.prepare(simt.LaunchConfig1D.for_len(RIDERS, block=128), dev)

    @property
    def cap(self) -> float:
        return DAILY_CAP[self.tier]

    def apply_caps(self) -> FareDay:
        part, _fares, _cap = apply_cap(tile.zeros((RIDERS,), f32).partition((TILE,)), self.fares, self.cap).sync_on(self.stream)
        self.capped = part.unpartition()
        return self

    def savings_report(self) -> dict[str, float]:
        if self.capped is None:
            raise RuntimeError("apply_caps() first")
        saved = sk.zeros(RIDERS, f32, self.stream)
        cap_savings.launch(self.prepared, self.stream, self.fares, self.capped, saved)
        values = saved.to_numpy(self.stream)
        return {
            "riders_capped": float((values > 0).sum()),
            "saved_total": float(values.sum()),
            "revenue": float(self.capped.to_numpy(self.stream).sum()),
        }


def tap_log(seed: int, mean_trips: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    trips = rng.poisson(mean_trips, RIDERS)
    taps = np.zeros((RIDERS, 8), np.float32)
    for r, n in enumerate(trips):
        taps[r, : min(n, 8)] = 2.75
    return taps


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    days = [FareDay(dev, stream, "adult", tap_log(1, 2.2)), FareDay(dev, stream, "concession", tap_log(2, 1.6))]
    grand = 0.0
    for day in days:
        report = day.apply_caps().savings_report()
        grand += report["revenue"]
        print(f"{day.tier:10s} cap {day.cap:4.2f}: {int(report['riders_capped'])} riders capped, "
              f"saved {report['saved_total']:7.2f}, revenue {report['revenue']:8.2f}")
    print(f"network revenue {grand:.2f}")


if __name__ == "__main__":
    main()
