# fresh-expect: E0505 at line 68
# fresh-note: Vineyard frost guard: start() keeps the dew_point launch_async op pending in self.pending, and plan_fans() (another method) moves self.dew into the fan_demand tile launch without calling self.wait() first.
"""Vineyard frost protection: dew points per vine-row sensor, then which wind machines to start."""
import math
import numpy as np


import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N_SENSORS = 2048
BLOCK = 256
TILE = 256
MAGNUS_B = 17.62
MAGNUS_C = 243.12


@simt.kernel
@simt.launch_contract(block=BLOCK)
def dew_point(temp_c: Slice[f32], rel_humidity: Slice[f32], dew: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dew.get_mut(idx)) is not None:
        t = temp_c[i]
        gamma = math.log(rel_humidity[i] / 100.0) + MAGNUS_B * t / (MAGNUS_C + t)
        out.set(MAGNUS_C * gamma / (MAGNUS_B - gamma))


@tile.kernel
def fan_demand(demand: Partition[f32], dew: Tensor[f32], wind: Tensor[f32], critical: f32) -> None:
    d = tile.load_like(dew, demand)
    w = tile.load_like(wind, demand)
    cold = tile.where(d < critical, critical - d, d * 0.0)
    # calm nights stratify: inversion protection works only when the wind is light
    demand.store(tile.where(w < 2.5, cold, cold * 0.0))


class FrostGuard:
    """One block of the vineyard: sensors are uploaded, converted asynchronously, then planned."""

    def __init__(self, dev: sk.Device, stream: sk.Stream, block_name: str) -> None:
        self.stream = stream
        self.block_name = block_name
        self.launch = dew_point.prepare(simt.LaunchConfig1D.for_len(N_SENSORS, block=BLOCK), dev)
        self.dew = sk.zeros(N_SENSORS, f32, stream)
        self.pending: sk.DeviceOp | None = None
        self.temps: sk.DeviceBuffer | None = None
        self.humidity: sk.DeviceBuffer | None = None

    def upload(self, temps: np.ndarray, humidity: np.ndarray) -> "FrostGuard":
        self.temps = sk.to_device(temps.astype(np.float32), self.stream)
        self.humidity = sk.to_device(humidity.astype(np.float32), self.stream)
        return self

    def start(self) -> None:
        self.pending = dew_point.launch_async(self.launch, self.temps, self.humidity, self.dew)

    def wait(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def plan_fans(self, wind: np.ndarray, critical: float = -1.0) -> np.ndarray:
        demand = tile.zeros((N_SENSORS,), f32).partition((TILE,))
        demand, self.dew, _, _ = fan_demand(demand, self.dew, tile.from_numpy(wind), critical).sync_on(self.stream)
        return demand.unpartition().to_numpy(self.stream)


def night_readings(rng: np.random.Generator, hour: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    base = 4.0 - 0.9 * hour
    temps = rng.normal(base, 1.2, N_SENSORS)
    humidity = np.clip(rng.normal(88.0, 6.0, N_SENSORS), 30.0, 100.0)
    wind = np.abs(rng.normal(1.8, 1.0, N_SENSORS)).astype(np.float32)
    return temps, humidity, wind


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)
    guards = [FrostGuard(dev, stream, name) for name in ("Riesling slope", "Pinot hollow")]
    for hour in (3, 6):
        temps, humidity, wind = night_readings(rng, hour)
        for guard in guards:
            guard.upload(temps, humidity).start()
        for guard in guards:
            demand = guard.plan_fans(wind)
            machines = int((demand.reshape(-1, 256).mean(axis=1) > 0.5).sum())
            print(f"{hour:02d}:00 {guard.block_name:15s} start {machines} of 8 wind machines")


if __name__ == "__main__":
    main()
