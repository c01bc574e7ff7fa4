# fresh-expect: clean
# fresh-note: Computes daily growing degree days with launch_async returned as an (op, buffer) pair and accumulates them with a tile cumsum; the op is synced before the buffer is partitioned, and the guard clause returns before anything is launched.
"""Crop phenology: growing degree days per weather station and the day each growth stage is reached.

Daily GDD uses the modified method (Tmax capped at 30 C, Tmin floored at the 10 C base) and is
computed asynchronously while the host prepares the next station; the season's cumulative GDD
is a tile scan over the same buffer. Stations with too short a record are skipped.
"""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

SEASON = 256
BASE_C, CAP_C = 10.0, 30.0
STAGES = {"V6": 475.0, "VT": 1135.0, "R1": 1400.0, "R6": 2700.0}   # maize, GDD in C-days


@simt.kernel
@simt.launch_contract(block=64, requires=("len(tmax) >= len(gdd)", "len(tmin) >= len(gdd)"))
def daily_gdd(tmax: Slice[f32], tmin: Slice[f32], gdd: DisjointSlice[f32], base: f32, cap: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (g := gdd.get_mut(idx)) is not None:
        hi = min(max(tmax[i], base), cap)
        lo = min(max(tmin[i], base), cap)
        g.set((hi + lo) * f32(0.5) - base)


@tile.kernel
def accumulate(gdd: Partition[f32]) -> None:
    gdd.store(tile.cumsum(gdd.load()))


def start_station(prep: simt.PreparedLaunch, stream: sk.Stream, tmax: np.ndarray,
                  tmin: np.ndarray) -> tuple[sk.DeviceOp, sk.DeviceBuffer]:
    hi = sk.to_device(tmax.astype(np.float32), stream)
    lo = sk.to_device(tmin.astype(np.float32), stream)
    gdd = sk.zeros(SEASON, f32, stream)
    return daily_gdd.launch_async(prep, hi, lo, gdd, BASE_C, CAP_C), gdd


def season_for(prep: simt.PreparedLaunch, stream: sk.Stream, tmax: np.ndarray,
               tmin: np.ndarray) -> np.ndarray | None:
    if len(tmax) < SEASON or np.isnan(tmax).mean() > 0.1:
        return None
    pending, gdd = start_station(prep, stream, tmax[:SEASON], tmin[:SEASON])
    pending.sync_on(stream)
    (cumulative,) = accumulate(gdd.partition((SEASON,))).sync_on(stream)
    return cumulative.unpartition().to_numpy(stream)


def synthetic_weather(rng: np.random.Generator, warmth: float, days: int) -> tuple[np.ndarray, np.ndarray]:
    d = np.arange(days)
    mean = 8.0 + warmth + 14.0 * np.sin(np.pi * d / 300.0)
    spread = 6.0 + rng.normal(0, 1.0, days)
    return mean + spread + rng.normal(0, 2.0, days), mean - spread + rng.normal(0, 2.0, days)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = daily_gdd.prepare(simt.LaunchConfig1D.for_len(SEASON, block=64), dev)
    rng = np.random.default_rng(1104)
    stations = [("Ames", 4.0, 300), ("Lincoln", 6.5, 300), ("Fargo", 0.5, 180), ("Peoria", 5.0, 300)]

    for name, warmth, days in stations:
        tmax, tmin = synthetic_weather(rng, warmth, days)
        cum = season_for(prep, stream, tmax, tmin)
        if cum is None:
            print(f"{name:8s}: record too short ({days} days), skipped")
            continue
        reached = {stage: int(np.searchsorted(cum, need)) for stage, need in STAGES.items()}
        text = ", ".join(f"{s} day {d}" if d < SEASON else f"{s} not reached" for s, d in reached.items())
        print(f"{name:8s}: season GDD {cum[-1]:6.0f}; {text}")


if __name__ == "__main__":
    main()
