# fresh-expect: clean
# fresh-note: Laundromat machine scheduling; a heap-ordered job scheduler dispatches washer and dryer energy kernels through a registry of launches each prepared by its own kernel, bound with functools.partial.
"""Energy and wear estimates for the machines of a self-service laundromat."""

from __future__ import annotations

import functools
import heapq
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CYCLES = 48


@simt.kernel
@simt.launch_contract(block=16)
def washer_kwh(load_kg: Slice[f32], water_temp: Slice[f32], kwh: DisjointSlice[f32], rate: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (k := kwh.get_mut(idx)) is not None:
        k.set(rate * load_kg[i] * (water_temp[i] - f32(10.0)) * f32(0.004))


@simt.kernel
@simt.launch_contract(block=16)
def dryer_kwh(load_kg: Slice[f32], moisture: Slice[f32], kwh: DisjointSlice[f32], rate: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (k := kwh.get_mut(idx)) is not None:
        k.set(rate * load_kg[i] * moisture[i] * f32(0.9))


KERNELS = {"washer": washer_kwh, "dryer": dryer_kwh}


@dataclass(order=True)
class Job:
    start_min: int
    machine: str = field(compare=False)
    kind: str = field(compare=False)


class Scheduler:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        config = simt.LaunchConfig1D.for_len(CYCLES, block=16)
        self.launches = {kind: kernel.prepare(config, dev) for kind, kernel in KERNELS.items()}
        self.queue: list[Job] = []
        self.bill: dict[str, float] = {}

    def book(self, job: Job) -> None:
        heapq.heappush(self.queue, job)

    def runner(self, kind: str) -> functools.partial:
        return functools.partial(KERNELS[kind].launch, self.launches[kind], self.stream)

    def run_all(self, load: sk.DeviceBuffer, aux: dict[str, sk.DeviceBuffer], rate: float) -> None:
        while self.queue:
            job = heapq.heappop(self.queue)
            kwh = sk.zeros(CYCLES, f32, self.stream)
            self.runner(job.kind)(load, aux[job.kind], kwh, rate)
            self.bill[job.machine] = self.bill.get(job.machine, 0.0) + float(kwh.to_numpy(self.stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(14)
    load = sk.to_device(rng.uniform(3, 9, CYCLES).astype(np.float32), stream)
    aux = {
        "washer": sk.to_device(rng.choice([30.0, 40.0, 60.0], CYCLES).astype(np.float32), stream),
        "dryer": sk.to_device(rng.uniform(0.4, 0.7, CYCLES).astype(np.float32), stream),
    }
    sched = Scheduler(dev, stream)
    for minute, machine in enumerate(["W1", "W2", "D1", "W1", "D2"]):
        sched.book(Job(minute * 35 % 90, machine, "dryer" if machine.startswith("D") else "washer"))
    sched.run_all(load, aux, rate=0.31)
    for machine, kwh in sorted(sched.bill.items()):
        print(f"{machine}: {kwh:.1f} kWh")


if __name__ == "__main__":
    main()
