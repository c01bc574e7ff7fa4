# fresh-expect: E0502 at line 81
# fresh-known-miss: cli,mypy jobs on a heap whose kernel is a dataclass field typed object, launched with launch_async in a loop before one final sync: kernels held in fields of heap items are not followed
# fresh-note: Schedules kava pounding and straining jobs on a heap and launches them all asynchronously before one final sync; a strain job's src is the pulp buffer its village's pending pound op is still writing, so its launch_async borrows pulp shared while it is mutably borrowed.
"""Kava (yaqona) preparation house: pounds dried root into pulp, then strains it into the tanoa bowl, by priority."""
from __future__ import annotations
import heapq
import itertools
from dataclasses import dataclass, field

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PORTIONS = 288


@simt.kernel
@simt.launch_contract(block=96)
def pound(root: Slice[f32], pulp: DisjointSlice[f32], fineness: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := pulp.get_mut(idx)) is not None:
        cell.set(root[i] * fineness)


@simt.kernel
@simt.launch_contract(block=96)
def strain(pulp: Slice[f32], brew: DisjointSlice[f32], water: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := brew.get_mut(idx)) is not None:
        cell.set(pulp[i] * 0.35 / water)


@dataclass
class Job:
    name: str
    kernel: object
    src: sk.DeviceBuffer
    dst: sk.DeviceBuffer
    param: float


@dataclass(order=True)
class Ticket:
    priority: int
    seq: int
    job: Job = field(compare=False)


class PreparationHouse:
    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        self.n = n
        cfg = simt.LaunchConfig1D.for_len(n, block=96)
        self.plans = {pound: pound.prepare(cfg, device), strain: strain.prepare(cfg, device)}
        self.heap: list[Ticket] = []
        self.inflight: list[sk.DeviceOp] = []
        self._seq = itertools.count()

    def schedule(self, job: Job, priority: int) -> "PreparationHouse":
        heapq.heappush(self.heap, Ticket(priority, next(self._seq), job))
        return self

    def order_bowl(self, village: str, root: np.ndarray, water_l: float) -> sk.DeviceBuffer:
        dried = sk.to_device(root.astype(np.float32), self.stream)
        pulp = sk.zeros(self.n, f32, self.stream)
        bowl = sk.zeros(self.n, f32, self.stream)
        self.schedule(Job(f"{village}/pound", pound, dried, pulp, 0.9), priority=0)
        self.schedule(Job(f"{village}/strain", strain, pulp, bowl, water_l), priority=1)
        return bowl

    def run(self) -> int:
        # launch everything in priority order, then wait once: the grog house is busy at dusk
        launched = 0
        while self.heap:
            ticket = heapq.heappop(self.heap)
            job = ticket.job
            self.inflight.append(job.kernel.launch_async(self.plans[job.kernel], job.src, job.dst, job.param))
            launched += 1
        for op in self.inflight:
            op.sync_on(self.stream)
        self.inflight.clear()
        return launched


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(43)
    house = PreparationHouse(device, PORTIONS)
    bowls = {
        village: house.order_bowl(village, rng.uniform(0.6, 1.0, PORTIONS), water)
        for village, water in (("Namosi", 4.0), ("Bua", 5.5))
    }
    print("launched", house.run(), "jobs")
    for village, bowl in bowls.items():
        print(f"{village}: strength {bowl.to_numpy(house.stream).mean():.4f}")


if __name__ == "__main__":
    main()
