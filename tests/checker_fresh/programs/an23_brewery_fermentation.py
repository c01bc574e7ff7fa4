# fresh-expect: W0003 at line 69
# fresh-note: Brewery fermentation monitoring: the per-tank zipped attenuation/alarm job is built before the conditioning-stage `continue`, so the job of a conditioning tank is dropped unrun when `job` is rebound.
from __future__ import annotations
from dataclasses import dataclass


import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

L = 32  # hourly readings kept per tank
TEMP_BAND = (17.0, 21.0)  # degC for an ale fermentation


@tile.kernel
def attenuation(out: Partition[f32], gravity: Tensor[f32], og: Tensor[f32]) -> None:
    g = tile.load_like(gravity, out)
    start = og.load((tile.bid(0),), (1,))
    out.store((start - g) / (start - 1.0))


@tile.kernel
def temp_alarm(flags: Partition[i32], temp: Tensor[f32], lo: f32, hi: f32) -> None:
    t = tile.load_like(temp, flags)
    flags.store(tile.where((t < lo) | (t > hi), 1, 0))


@dataclass
class Tank:
    name: str
    stage: str  # "primary", "diacetyl_rest" or "conditioning"
    og: float
    gravity: np.ndarray
    temp: np.ndarray


@dataclass
class TankReport:
    name: str
    attenuation: float
    alarms: int


class FleetMonitor:
    def __init__(self, tanks: list[Tank], device: sk.Device) -> None:
        self.tanks = tanks
        self.stream = device.new_stream()
        n = len(tanks)
        gravity = np.concatenate([t.gravity for t in tanks]).astype(np.float32)
        og = np.array([t.og for t in tanks], np.float32)
        op = attenuation(tile.zeros((n * L,), f32).partition((L,)), tile.from_numpy(gravity), tile.from_numpy(og))
        self.graph = op.graph_on(self.stream)  # captured once, replayed every hour
        self.att, self.gravity, _ = self.graph.value

    def hourly(self, gravity: np.ndarray) -> np.ndarray:
        self.gravity.as_buffer().copy_from_numpy(gravity.astype(np.float32), self.stream)
        self.graph.replay()
        self.stream.synchronize()
        return self.att.to_numpy(self.stream).reshape(len(self.tanks), L)[:, -1]

    def tank_job(self, tank: Tank) -> sk.DeviceOp:
        att = attenuation(tile.zeros((L,), f32).partition((L,)), tile.from_numpy(tank.gravity.astype(np.float32)),
                          tile.from_numpy(np.array([tank.og], np.float32)))
        alarms = temp_alarm(tile.zeros((L,), i32).partition((L,)), tile.from_numpy(tank.temp.astype(np.float32)),
                            *TEMP_BAND)
        return sk.zip(att.then(lambda v: v[0].unpartition()), alarms.first().unpartition())

    def reports(self) -> list[TankReport]:
        out = []
        for tank in self.tanks:
            job = self.tank_job(tank)
            if tank.stage == "conditioning":
                continue  # cold-crashed: gravity is final, temperature is not controlled
            att, alarms = job.sync_on(self.stream)
            a = att.to_numpy(self.stream)
            out.append(TankReport(tank.name, float(a[-1]), int(alarms.to_numpy(self.stream).sum())))
        return out


def synthetic_tank(name: str, stage: str, og: float, fg: float, rng: np.random.Generator) -> Tank:
    hours = np.arange(L)
    gravity = fg + (og - fg) * np.exp(-hours / 10.0) + rng.normal(0, 0.0005, L)
    temp = 19.0 + rng.normal(0, 0.6, L) + (2.5 if stage == "diacetyl_rest" else 0.0) * (hours > 24)
    return Tank(name, stage, og, gravity, temp)


def main() -> None:
    rng = np.random.default_rng(12)
    tanks = [synthetic_tank("FV1", "primary", 1.052, 1.011, rng),
             synthetic_tank("FV2", "conditioning", 1.060, 1.012, rng),
             synthetic_tank("FV3", "diacetyl_rest", 1.048, 1.009, rng)]
    monitor = FleetMonitor(tanks, sk.Device.cpu())
    latest = monitor.hourly(np.concatenate([t.gravity - 0.001 for t in tanks]))  # the next hour's readings
    want = np.array([(t.og - t.gravity[-1] + 0.001) / (t.og - 1.0) for t in tanks])
    np.testing.assert_allclose(latest, want, rtol=1e-3)
    for report in monitor.reports():
        print(f"{report.name}: apparent attenuation {report.attenuation:.1%}, {report.alarms} temperature alarms")


if __name__ == "__main__":
    main()
