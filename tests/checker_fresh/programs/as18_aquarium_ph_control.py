# fresh-expect: clean
# fresh-note: Public-aquarium pH dosing; per-tank dose launches are queued with launch_async into distinct per-tank buffers, flushed, and only then partitioned for the dose-ramp tile kernel.
"""Buffer dosing for the exhibit tanks of a public aquarium, sensor by sensor."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

SENSORS = 32
TILE = 8
MAX_STEP_ML = 4.0


@simt.kernel
@simt.launch_contract(block=32)
def dose_needed(ph: Slice[f32], alkalinity: Slice[f32], dose: DisjointSlice[f32], target: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (d := dose.get_mut(idx)) is not None:
        gap = target - ph[i]
        if gap < 0.0:
            gap = f32(0.0)
        d.set(gap * 120.0 / (alkalinity[i] + 1.0))


@tile.kernel
def ramp_limit(dose: Partition[f32], max_step: f32) -> None:
    dose.store(tile.minimum(dose.load(), max_step))


@dataclass
class Tank:
    name: str
    target_ph: float
    ph: np.ndarray
    alkalinity: np.ndarray
    online: bool = True


class DosingController:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = dose_needed.prepare(simt.LaunchConfig1D.for_len(SENSORS, block=32), dev)
        self.queue: list[tuple[str, sk.DeviceOp]] = []

    def plan(self, tanks: list[Tank]) -> dict[str, np.ndarray]:
        doses = {t.name: sk.zeros(SENSORS, f32, self.stream) for t in tanks}
        for tank in tanks:
            if not tank.online:
                continue
            ph = sk.to_device(tank.ph.astype(np.float32), self.stream)
            alk = sk.to_device(tank.alkalinity.astype(np.float32), self.stream)
            self.queue.append((tank.name, dose_needed.launch_async(self.prepared, ph, alk, doses[tank.name], tank.target_ph)))
        done = self.flush()
        limited = {}
        for name in done:
            part, _ = ramp_limit(doses.pop(name).partition((TILE,)), MAX_STEP_ML).sync_on(self.stream)
            limited[name] = part.unpartition().to_numpy(self.stream)
        return limited

    def flush(self) -> list[str]:
        names = []
        while self.queue:
            name, op = self.queue.pop(0)
            op.sync_on(self.stream)
            names.append(name)
        return names


def reef_tank(name: str, target: float, seed: int, online: bool = True) -> Tank:
    rng = np.random.default_rng(seed)
    return Tank(name, target, rng.normal(target - 0.15, 0.1, SENSORS), rng.uniform(6.0, 11.0, SENSORS), online)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    tanks = [
        reef_tank("coral_reef", 8.25, 1),
        reef_tank("kelp_forest", 8.05, 2),
        reef_tank("amazon_river", 6.8, 3, online=False),    # sensor rack in maintenance
        reef_tank("jellyfish", 8.1, 4),
    ]
    plan = DosingController(dev, stream).plan(tanks)
    for name, ml in sorted(plan.items(), key=lambda kv: -kv[1].sum()):
        capped = int((ml >= MAX_STEP_ML).sum())
        print(f"{name:12s} total {ml.sum():7.1f} ml, {capped} sensors at the ramp cap")
    offline = [t.name for t in tanks if not t.online]
    print("offline:", ", ".join(offline))


if __name__ == "__main__":
    main()
