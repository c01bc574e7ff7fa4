# fresh-expect: clean
# fresh-note: Ferry timetable delays twin: each route's launch hands the shared weather_delay tensor back into the same name, so the next route reads a live value.
"""Ferry operations: propagate a day's weather delays through the timetable of every route."""
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SAILINGS = 512  # sailings per route per day (a busy archipelago network)
TILE = 128
TURNAROUND_MIN = 12.0  # minutes at the berth before a late boat can leave again


@tile.kernel
def propagate(departure: Partition[f32], scheduled: Tensor[f32], delay: Tensor[f32], slack: f32) -> None:
    planned = tile.load_like(scheduled, departure)
    late = tile.load_like(delay, departure)
    excess = late - slack
    departure.store(planned + tile.where(excess > 0.0, excess, excess * 0.0))


@dataclass
class Route:
    name: str
    first_departure: float  # minutes after midnight
    headway: float  # minutes between sailings
    log: list[str] = field(default_factory=list)

    def slack(self) -> float:
        return max(self.headway - TURNAROUND_MIN, 0.0) * 0.5

    def timetable(self) -> np.ndarray:
        return (self.first_departure + self.headway * np.arange(SAILINGS)).astype(np.float32)


def fmt_clock(minutes: float) -> str:
    minutes = minutes % (24 * 60)
    return f"{int(minutes // 60):02d}:{int(minutes % 60):02d}"


def summarize(route: Route, planned: np.ndarray, actual: np.ndarray) -> dict[str, float]:
    lateness = actual - planned
    worst = int(np.argmax(lateness))
    route.log.append(f"worst sailing {fmt_clock(planned[worst])} left {lateness[worst]:.1f} min late")
    return {
        "mean_late": float(lateness.mean()),
        "on_time_share": float((lateness < 5.0).mean()),
        "worst": float(lateness[worst]),
    }


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(11)
    routes = [
        Route("Harbour-Skerry", 330.0, 20.0),
        Route("Skerry-Outer Isle", 345.0, 35.0),
        Route("Harbour-Lighthouse", 300.0, 15.0),
    ]
    # one storm front: the delay each sailing slot accumulates, shared by every route today
    gusts = rng.gamma(shape=1.5, scale=9.0, size=SAILINGS).astype(np.float32)
    weather_delay = tile.from_numpy(gusts)

    report: dict[str, dict[str, float]] = {}
    for route in routes:
        planned_np = route.timetable()
        scheduled = tile.from_numpy(planned_np)
        plan = tile.zeros((SAILINGS,), f32).partition((TILE,))
        plan, scheduled, weather_delay, _ = propagate(plan, scheduled, weather_delay, route.slack()).sync_on(stream)
        actual = plan.unpartition().to_numpy(stream)
        report[route.name] = summarize(route, planned_np, actual)

    for name, stats in sorted(report.items(), key=lambda kv: kv[1]["mean_late"], reverse=True):
        print(f"{name:22s} mean {stats['mean_late']:5.1f} min, on time {stats['on_time_share']:.0%}")
    for route in routes:
        print(route.name, "->", "; ".join(route.log))


if __name__ == "__main__":
    main()
