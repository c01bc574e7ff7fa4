# fresh-expect: E0133 at line 78
# fresh-note: Irrigation scheduler with a soil water-balance kernel and a contract-less shared-memory zone-average kernel; the scheduler wraps its call to the helper method in `with simt.unsafe():`, but the `launch_unchecked` sits in the helper, which the lexical unsafe block does not cover.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ZONE = 128  # cells per irrigation zone = threads per block of the zone kernel


@simt.kernel
@simt.launch_contract(block=128)
def water_balance(moisture: Slice[f32], irrigation: Slice[f32], crop_coef: Slice[f32],
                  out: DisjointSlice[f32], rain: f32, et0: f32, capacity: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        zone = i // ZONE
        m = moisture[i] + rain + irrigation[zone] - et0 * crop_coef[i]
        drained = max(m - capacity, f32(0.0)) * f32(0.6)
        o.set(min(max(m - drained, f32(0.0)), capacity))


@simt.kernel
def zone_mean(moisture: Slice[f32], means: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    b = thread.block_idx_x()
    i = b * ZONE + t
    with simt.unsafe():
        scratch = simt.shared_array(f32, ZONE)
        scratch[t] = moisture[i] if i < len(moisture) else f32(0.0)
    thread.sync_threads()
    stride = ZONE // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                scratch[t] = scratch[t] + scratch[t + stride]
        thread.sync_threads()
        stride = stride // 2
    if t == 0 and b < len(means):
        with simt.unsafe():
            means.get_unchecked_mut(b).set(scratch[0] / f32(ZONE))


class Farm:
    def __init__(self, zones: int, capacity: float, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.zones = zones
        self.capacity = capacity
        cells = zones * ZONE
        rng = np.random.default_rng(4)
        self.moisture = sk.to_device(rng.uniform(0.15, 0.3, cells).astype(np.float32), self.stream)
        self.scratch = sk.zeros(cells, f32, self.stream)
        self.crop = sk.to_device(np.repeat(np.linspace(0.6, 1.2, zones), ZONE).astype(np.float32),
                                 self.stream)
        self.irrigation = sk.zeros(zones, f32, self.stream)
        self.means = sk.zeros(zones, f32, self.stream)
        self.balance_launch = water_balance.prepare(simt.LaunchConfig1D.for_len(cells, block=128), dev)
        self.zone_config = simt.LaunchConfig1D(zones, ZONE)

    def day(self, rain: float, et0: float) -> None:
        water_balance.launch(self.balance_launch, self.stream, self.moisture, self.irrigation, self.crop,
                             self.scratch, rain, et0, self.capacity)
        self.moisture, self.scratch = self.scratch, self.moisture

    def schedule(self, threshold: float, dose: float) -> np.ndarray:
        with simt.unsafe():      # zone_mean has no launch contract
            means = self.zone_means()
        plan = np.where(means < threshold, dose, 0.0).astype(np.float32)
        self.irrigation.copy_from_numpy(plan, self.stream)
        return plan

    def zone_means(self) -> np.ndarray:
        zone_mean.launch_unchecked(self.zone_config, self.stream, self.moisture, self.means)
        return self.means.to_numpy(self.stream)


def season(days: int) -> list[float]:
    farm = Farm(zones=6, capacity=0.35, dev=sk.Device.cpu())
    weather = np.random.default_rng(9)
    water_used = []
    for d in range(days):
        rain = float(weather.choice([0.0, 0.0, 0.0, 0.02]))
        farm.day(rain=rain, et0=0.012)
        if d % 2 == 1:
            plan = farm.schedule(threshold=0.2, dose=0.03)
            water_used.append(float(plan.sum()))
    return water_used


if __name__ == "__main__":
    print("water applied per schedule:", season(days=6))
