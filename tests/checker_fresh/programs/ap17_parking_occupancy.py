# fresh-expect: E0382 at line 51
# fresh-note: Multi-storey car-park occupancy; the per-minute rate partition is unpartitioned once for the report and again for the forecast launch, but `unpartition` moved it the first time.
"""Per-minute occupancy of each car-park level from bay sensors, plus a blended next-hour forecast."""
import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.tile import Partition, Tensor
from safekernels.dtypes import f32

MINUTES = 64
BAYS = 128
ROWS_PER_TILE = 16
LEVELS = ["P0", "P1", "P2", "roof"]
FULL_AT = 0.92


@tile.kernel
def occupancy_rate(rate: Partition[f32], bays: Tensor[f32]) -> None:
    window = bays.load((tile.bid(0), 0), (16, 128))       # 16 minutes x every bay
    rate.store(tile.sum(window, axis=1) / 128.0)


@tile.kernel
def blend_forecast(out: Partition[f32], rate: Tensor[f32], profile: Tensor[f32]) -> None:
    out.store(0.7 * tile.load_like(rate, out) + 0.3 * tile.load_like(profile, out))


def sensor_log(level: str, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed + LEVELS.index(level))
    fill = np.clip(np.linspace(0.3, 1.05 - 0.2 * LEVELS.index(level), MINUTES), 0, 1)
    return (rng.random((MINUTES, BAYS)) < fill[:, None]).astype(np.float32)


def weekday_profile() -> np.ndarray:
    minutes = np.arange(MINUTES, dtype=np.float32)
    return (0.55 + 0.35 * np.sin(minutes / MINUTES * np.pi)).astype(np.float32)


def first_full_minute(rates: np.ndarray) -> int | None:
    full = np.nonzero(rates >= FULL_AT)[0]
    return int(full[0]) if len(full) else None


def analyse_level(level: str, profile: np.ndarray, stream: sk.Stream) -> dict:
    bays = tile.from_numpy(sensor_log(level))
    rate = tile.zeros((MINUTES,), f32).partition((ROWS_PER_TILE,))
    rate, bays = occupancy_rate(rate, bays).sync_on(stream)
    rates = rate.unpartition().to_numpy(stream)

    forecast = tile.zeros((MINUTES,), f32).partition((ROWS_PER_TILE,))
    forecast, _, _ = blend_forecast(forecast, rate.unpartition(), tile.from_numpy(profile)).sync_on(stream)
    predicted = forecast.unpartition().to_numpy(stream)
    return {
        "level": level,
        "mean": float(rates.mean()),
        "full_at": first_full_minute(rates),
        "forecast_full_at": first_full_minute(predicted),
    }


def print_board(reports: list[dict]) -> None:
    for r in reports:
        full = "never" if r["full_at"] is None else f"minute {r['full_at']}"
        ahead = "never" if r["forecast_full_at"] is None else f"minute {r['forecast_full_at']}"
        print(f"{r['level']:>4}: mean {r['mean']:.0%}, full {full}, forecast full {ahead}")


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    profile = weekday_profile()
    reports = [analyse_level(level, profile, stream) for level in LEVELS]
    print_board(reports)
    spare = [r["level"] for r in reports if r["full_at"] is None]
    print("direct arrivals to:", ", ".join(spare) if spare else "nowhere, car park full")


if __name__ == "__main__":
    main()
