# fresh-expect: clean
# fresh-note: A basketball shot chart runs per-quarter tile histograms with atomics, skips empty quarters before building ops, pairs quarters with sk.zip (or then for the odd one) and consumes every op under try/except.
"""Basketball shot chart: per-half zone histograms with tile atomics, quarters zipped into one run, empty quarters skipped."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import i32
from safekernels.tile import AtomicTensor, Partition, Tensor

ZONES = 14
T = 16


@tile.kernel
def zone_hist(made: Partition[i32], attempts: AtomicTensor[i32], makes: AtomicTensor[i32],
              zone: Tensor[i32], hit: Tensor[i32]) -> None:
    z = tile.load_like(zone, made)
    h = tile.load_like(hit, made)
    valid = tile.iota(T, i32) + tile.bid(0) * T < zone.shape[0]
    tile.atomic_add(attempts, z, 1, mask=valid)
    tile.atomic_add(makes, z, h, mask=valid)
    made.store(h * 3)


@dataclass
class Quarter:
    number: int
    zones: np.ndarray
    hits: np.ndarray


@dataclass
class ShotChart:
    team: str
    attempts: np.ndarray = field(default_factory=lambda: np.zeros(ZONES, np.int64))
    makes: np.ndarray = field(default_factory=lambda: np.zeros(ZONES, np.int64))

    def fg_pct(self) -> dict[int, float]:
        return {z: self.makes[z] / a for z, a in enumerate(self.attempts) if a}


def quarter_op(q: Quarter) -> sk.DeviceOp:
    n = len(q.zones)
    return zone_hist(
        tile.zeros((n,), i32).partition((T,)),
        tile.zeros((ZONES,), i32),
        tile.zeros((ZONES,), i32),
        tile.from_numpy(q.zones.astype(np.int32)),
        tile.from_numpy(q.hits.astype(np.int32)),
    )


def simulate(team_seed: int) -> list[Quarter]:
    rng = np.random.default_rng(team_seed)
    quarters = []
    for number, shots in enumerate((22, 0, 19, 25), start=1):
        quarters.append(Quarter(number, rng.integers(0, ZONES, shots), (rng.random(shots) < 0.46).astype(np.int64)))
    return quarters


def chart_for(team: str, quarters: list[Quarter], stream: sk.Stream) -> ShotChart:
    chart = ShotChart(team)
    played = [q for q in quarters if len(q.zones)]
    for first, second in zip(played[::2], played[1::2] + [None]):
        if second is None:
            ops = quarter_op(first).then(lambda v: (v,))
        else:
            ops = sk.zip(quarter_op(first), quarter_op(second))
        try:
            results = ops.sync_on(stream)
        except sk.ShapeError as err:
            print(f"{team}: bad quarter shapes: {err}")
            continue
        for made, attempts, makes, _zone, _hit in results:
            chart.attempts += attempts.to_numpy(stream)
            chart.makes += makes.to_numpy(stream)
            del made
    return chart


def main() -> None:
    stream = sk.Device.default().new_stream()
    for team, seed in (("Harbor Hawks", 7), ("Mesa Suns", 8)):
        chart = chart_for(team, simulate(seed), stream)
        hot = max(chart.fg_pct().items(), key=lambda kv: kv[1])
        print(f"{team}: {int(chart.attempts.sum())} shots, hottest zone {hot[0]} at {hot[1]:.0%}")


if __name__ == "__main__":
    main()
