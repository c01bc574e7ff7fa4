# fresh-expect: clean
# fresh-note: Tidal farm twin: the speed buffer goes back to the pool only after the pending turbine_power op has run, so the phase buffer acquired meanwhile is a different allocation.
"""Tidal stream farm: turbine power per tide sample, overlapped with flood/ebb classification, pooled buffers."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SAMPLES = 1440  # one sample per minute over a day
BLOCK = 128
RHO = 1025.0  # seawater kg/m^3
ROTOR_AREA = 283.0  # m^2 (19 m rotor)
CP = 0.41
RATED_W = 1.5e6


@simt.kernel
@simt.launch_contract(block=BLOCK)
def turbine_power(speed: Slice[f32], power: DisjointSlice[f32], rho: f32, area: f32, cp: f32, rated: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := power.get_mut(idx)) is not None:
        v = abs(speed[i])
        p = 0.5 * rho * area * cp * v * v * v
        out.set(min(p, rated))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def tide_phase(level: Slice[f32], phase: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := phase.get_mut(idx)) is not None:
        rising = f32(0.0)
        if i + 1 < len(level) and level[i + 1] > level[i]:
            rising = f32(1.0)
        out.set(rising)


class BufferPool:
    """Recycles device buffers of one length so a long-running logger does not allocate per cycle."""

    def __init__(self, n: int, stream: sk.Stream) -> None:
        self.n = n
        self.stream = stream
        self._free: list[sk.DeviceBuffer] = []
        self.allocations = 0

    def acquire(self) -> sk.DeviceBuffer:
        if self._free:
            return self._free.pop()
        self.allocations += 1
        return sk.zeros(self.n, f32, self.stream)

    def release(self, *bufs: sk.DeviceBuffer) -> None:
        self._free.extend(bufs)


class TidalFarm:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.pool = BufferPool(SAMPLES, stream)
        config = simt.LaunchConfig1D.for_len(SAMPLES, block=BLOCK)
        self.power_launch = turbine_power.prepare(config, dev)
        self.phase_launch = tide_phase.prepare(config, dev)

    def day(self, speed_ms: np.ndarray, level_m: np.ndarray) -> dict[str, float]:
        speed = self.pool.acquire()
        speed.copy_from_numpy(speed_ms, self.stream)
        power = self.pool.acquire()
        pending = turbine_power.launch_async(self.power_launch, speed, power, RHO, ROTOR_AREA, CP, RATED_W)
        phase = self.pool.acquire()
        level = sk.to_device(level_m.astype(np.float32), self.stream)
        tide_phase.launch(self.phase_launch, self.stream, level, phase)
        pending.sync_on(self.stream)
        watts, flood = power.to_numpy(self.stream), phase.to_numpy(self.stream) > 0.5
        self.pool.release(speed, power, phase)
        return {
            "energy_mwh": float(watts.sum() / 60.0 / 1e6),
            "flood_share": float(flood.mean()),
            "rated_minutes": float((watts >= RATED_W).sum()),
        }


def tide(day: int) -> tuple[np.ndarray, np.ndarray]:
    t = np.arange(SAMPLES) / 60.0  # hours
    m2 = 2 * np.pi / 12.42
    spring = 1.0 + 0.3 * np.cos(2 * np.pi * day / 14.77)
    level = 2.1 * spring * np.sin(m2 * t + 0.8 * day)
    speed = 2.6 * spring * np.cos(m2 * t + 0.8 * day)
    return speed.astype(np.float32), level.astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    farm = TidalFarm(dev, dev.new_stream())
    for day in range(3):
        stats = farm.day(*tide(day))
        print(f"day {day}: {stats['energy_mwh']:.1f} MWh, flood {stats['flood_share']:.0%}, rated {stats['rated_minutes']:.0f} min")
    print("device buffers allocated:", farm.pool.allocations)


if __name__ == "__main__":
    main()
