# fresh-expect: E0499 at line 54
# fresh-note: motorway toll plaza revenue; a dict comprehension starts one async launch per lane that all add into the plaza's shared atomic revenue-by-class buffer, so the second lane's launch borrows it mutably while the first is still pending.
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

VEHICLES = 128
CLASSES = 5
TARIFF = (2.10, 3.40, 5.80, 8.90, 12.50)


@simt.kernel
@simt.launch_contract(block=64)
def charge(vclass: Slice[i32], discount: Slice[f32], fare: DisjointSlice[f32], by_class: AtomicSlice[f32],
           t0: f32, t1: f32, t2: f32, t3: f32, t4: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    c = vclass[i]
    base = t0 if c == 0 else (t1 if c == 1 else (t2 if c == 2 else (t3 if c == 3 else t4)))
    amount = base * (f32(1.0) - discount[i])
    if (f := fare.get_mut(idx)) is not None:
        f.set(amount)
        by_class.fetch_add(c, amount)


@dataclass
class LaneBatch:
    lane: str
    classes: np.ndarray
    transponder: np.ndarray

    def discounts(self) -> np.ndarray:
        return np.where(self.transponder, 0.15, 0.0).astype(np.float32)


class Plaza:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.plan = charge.prepare(simt.LaunchConfig1D.for_len(VEHICLES, block=64), dev)
        self.by_class = sk.zeros(CLASSES, f32, stream)
        self.fares: dict[str, sk.DeviceBuffer] = defaultdict(lambda: sk.zeros(VEHICLES, f32, stream))

    def _start(self, batch: LaneBatch) -> sk.DeviceOp:
        vclass = sk.to_device(batch.classes.astype(np.int32), self.stream)
        disc = sk.to_device(batch.discounts(), self.stream)
        return charge.launch_async(self.plan, vclass, disc, self.fares[batch.lane], self.by_class, *TARIFF)

    def close_shift(self, batches: list[LaneBatch]) -> dict[str, float]:
        running = {b.lane: self._start(b) for b in batches}
        sk.zip(*running.values()).sync_on(self.stream)
        return {lane: float(self.fares[lane].to_numpy(self.stream).sum()) for lane in running}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    plaza = Plaza(dev, stream)
    rng = np.random.default_rng(19)
    batches = [
        LaneBatch(f"lane_{k}", rng.choice(CLASSES, VEHICLES, p=[0.62, 0.2, 0.1, 0.05, 0.03]), rng.random(VEHICLES) < 0.7)
        for k in range(1, 4)
    ]
    per_lane = plaza.close_shift(batches)
    for lane, total in per_lane.items():
        print(f"{lane}: EUR {total:8.2f}")
    print("by class:", np.round(plaza.by_class.to_numpy(stream), 2))


if __name__ == "__main__":
    main()
