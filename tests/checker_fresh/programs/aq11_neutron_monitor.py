# fresh-expect: E0505 at line 62
# fresh-note: Neutron monitor barometric correction in a class-based staging context manager whose `__enter__` starts a `launch_async` and whose `__exit__` syncs it; bug: inside the `with` block `relative_excess(staging.corrected, ...)` moves the still-borrowed output into the tile launch at line 62.
"""Cosmic-ray neutron monitor: barometric correction of count rates and ground-level-enhancement alerts.

Raw minute counts of each station are corrected for air pressure on the SIMT track inside a staging
context manager (the launch starts on entry and is synchronised on exit); a tile kernel then compares the
corrected rates with the station baseline.
"""

from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 120  # two hours of minute data per tile block


@simt.kernel
@simt.launch_contract(block=64)
def barometric(raw: Slice[f32], pressure: Slice[f32], corrected: DisjointSlice[f32], beta: f32, p0: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (c := corrected.get_mut(idx)) is not None:
        c.set(raw[i] * math.exp(beta * (pressure[i] - p0)))


@tile.kernel
def excess(ratio: Partition[f32], rate: Tensor[f32], baseline: f32) -> None:
    ratio.store(tile.load_like(rate, ratio) * (1.0 / baseline) - 1.0)


class Staging:
    """Starts the barometric correction of one station on entry and waits for it on exit."""

    def __init__(self, raw: np.ndarray, pressure: np.ndarray, device: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.raw = sk.to_device(raw.astype(np.float32), stream)
        self.pressure = sk.to_device(pressure.astype(np.float32), stream)
        self.corrected = sk.zeros(len(raw), f32, stream)
        self.prepared = barometric.prepare(simt.LaunchConfig1D.for_len(len(raw), block=64), device)
        self.op: sk.DeviceOp | None = None

    def __enter__(self) -> Staging:
        self.op = barometric.launch_async(self.prepared, self.raw, self.pressure, self.corrected, 0.0072, 1013.0)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None


def relative_excess(rate: sk.DeviceBuffer, baseline: float, stream: sk.Stream) -> np.ndarray:
    ratio = tile.zeros((len(rate),), f32).partition((TILE,))
    ratio, _rate, _ = excess(ratio, rate, baseline).sync_on(stream)
    return ratio.unpartition().to_numpy(stream)


def station_day(rng: np.random.Generator, minutes: int, gle_at: int | None) -> tuple[np.ndarray, np.ndarray]:
    pressure = 1013.0 + np.cumsum(rng.normal(0.0, 0.05, minutes))
    counts = rng.poisson(6000.0, minutes) * np.exp(-0.0072 * (pressure - 1013.0))
    if gle_at is not None:
        counts[gle_at : gle_at + 30] *= 1.12
    return counts, pressure


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    rng = np.random.default_rng(1956)
    stations = {"Oulu": 300, "Thule": None, "McMurdo": 900}
    for name, gle_at in stations.items():
        counts, pressure = station_day(rng, 1440, gle_at)
        with Staging(counts, pressure, device, stream) as staging:
            rel = relative_excess(staging.corrected, 6000.0, stream)
        alerts = np.flatnonzero(rel > 0.05)
        first = f"first alert at minute {alerts[0]}" if len(alerts) else "quiet"
        print(f"{name:<8} max excess {rel.max():+.1%}, {first}")


if __name__ == "__main__":
    main()
