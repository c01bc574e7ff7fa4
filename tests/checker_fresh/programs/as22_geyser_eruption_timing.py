# fresh-expect: W0003 at line 40
# fresh-note: Geyser eruption watch; the scan prefetches the next basin's tile launch before analysing the current one, and the `break` on the first imminent eruption drops that prefetched op unrun.
"""Conduit-pressure trends for a geyser basin boardwalk: estimate minutes to the next eruption."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SAMPLES = 240           # one pressure sample every 30 s, two hours
TILE = 60
ALERT_MINUTES = 20.0


@tile.kernel
def pressure_trend(trend: Partition[f32], pressure: Tensor[f32], gain: f32) -> None:
    p = tile.load_like(pressure, trend)
    mean = tile.sum(p, axis=0, keepdims=True) / 60.0
    trend.store((p - mean) * gain)


@dataclass
class Geyser:
    name: str
    pressure: np.ndarray
    gain: float
    recharge_kpa_per_min: float


class GeyserWatch:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.scanned: list[str] = []

    def _launch(self, geyser: Geyser) -> sk.DeviceOp:
        return pressure_trend(tile.zeros((SAMPLES,), f32).partition((TILE,)), tile.from_numpy(geyser.pressure), geyser.gain)

    @staticmethod
    def minutes_to_eruption(trend: np.ndarray, recharge: float) -> float:
        last_window = trend[-TILE:]
        rise = float(last_window[-1] - last_window.min())
        threshold = 12.0
        return max(threshold - rise, 0.0) / max(recharge, 1e-3)

    def scan(self, geysers: list[Geyser]) -> list[tuple[str, float]]:
        alerts: list[tuple[str, float]] = []
        pending = self._launch(geysers[0])
        for k, geyser in enumerate(geysers):
            trend, _pressure, _gain = pending.sync_on(self.stream)
            if k + 1 < len(geysers):
                pending = self._launch(geysers[k + 1])       # overlap the next basin with this analysis
            values = trend.unpartition().to_numpy(self.stream)
            self.scanned.append(geyser.name)
            eta = self.minutes_to_eruption(values, geyser.recharge_kpa_per_min)
            if eta < ALERT_MINUTES:
                alerts.append((geyser.name, eta))
                break                                          # one imminent eruption closes the boardwalk
        return alerts


def pressure_series(seed: int, cycle_min: float, phase: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = np.arange(SAMPLES) * 0.5
    sawtooth = ((t + phase) % cycle_min) / cycle_min * 15.0
    return (100.0 + sawtooth + rng.normal(0.0, 0.3, SAMPLES)).astype(np.float32)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    geysers = [
        Geyser("Castle", pressure_series(1, 75.0, 5.0), 1.0, 0.2),
        Geyser("Grand", pressure_series(2, 40.0, 33.0), 1.2, 0.8),
        Geyser("Daisy", pressure_series(3, 95.0, 70.0), 0.9, 0.15),
        Geyser("Riverside", pressure_series(4, 60.0, 12.0), 1.1, 0.3),
    ]
    watch = GeyserWatch(stream)
    alerts = watch.scan(geysers)
    print("scanned:", ", ".join(watch.scanned))
    for name, eta in alerts:
        print(f"ALERT {name}: eruption expected in {eta:.0f} min, clear the boardwalk")
    if not alerts:
        print("no eruption expected within", ALERT_MINUTES, "minutes")


if __name__ == "__main__":
    main()
