# fresh-expect: clean
# fresh-note: Avalanche forecast twin: every registry entry is prepared by the kernel that launches it, so each launch gets its own brand.
"""Avalanche bulletin: settle new snow, add wind loading, and rate slab stability per slope cell."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 3000  # slope cells of the forecast region (30 m grid)
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def settle(depth: Slice[f32], density: Slice[f32], settled: DisjointSlice[f32], hours: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := settled.get_mut(idx)) is not None:
        compaction = 0.004 * hours * (1.0 - density[i] / 450.0)
        out.set(depth[i] * (1.0 - compaction))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def wind_load(settled: Slice[f32], lee_factor: Slice[f32], loaded: DisjointSlice[f32], wind_ms: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := loaded.get_mut(idx)) is not None:
        drift = 0.0
        if wind_ms > 5.0:
            drift = 0.012 * (wind_ms - 5.0) * lee_factor[i]
        out.set(settled[i] + drift)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def stability(loaded: Slice[f32], slope_deg: Slice[f32], danger: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := danger.get_mut(idx)) is not None:
        steep = 0.0
        if slope_deg[i] > 30.0:
            steep = (slope_deg[i] - 30.0) / 15.0
        out.set(loaded[i] * (1.0 + steep))


def prepare_all(dev: sk.Device, n: int) -> dict[str, simt.PreparedLaunch]:
    config = simt.LaunchConfig1D.for_len(n, block=BLOCK)
    return {
        "settle": settle.prepare(config, dev),
        "wind": wind_load.prepare(config, dev),
        "stability": stability.prepare(config, dev),
    }


def danger_level(index: float) -> str:
    for limit, label in ((0.3, "1-low"), (0.6, "2-moderate"), (1.0, "3-considerable"), (1.5, "4-high")):
        if index < limit:
            return label
    return "5-very high"


def run_forecast(terrain: dict[str, np.ndarray], weather: dict[str, float], launches: dict, stream: sk.Stream) -> np.ndarray:
    bufs = {name: sk.to_device(values.astype(np.float32), stream) for name, values in terrain.items()}
    settled = sk.zeros(CELLS, f32, stream)
    loaded = sk.zeros(CELLS, f32, stream)
    danger = sk.zeros(CELLS, f32, stream)
    settle.launch(launches["settle"], stream, bufs["new_snow"], bufs["density"], settled, weather["hours"])
    wind_load.launch(launches["wind"], stream, settled, bufs["lee"], loaded, weather["wind"])
    stability.launch(launches["stability"], stream, loaded, bufs["slope"], danger)
    return danger.to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(1999)
    terrain = {
        "new_snow": rng.gamma(2.0, 0.2, CELLS),  # metres of new snow
        "density": rng.uniform(60.0, 250.0, CELLS),  # kg/m^3
        "lee": rng.uniform(0.0, 1.0, CELLS),
        "slope": rng.uniform(15.0, 50.0, CELLS),
    }
    launches = prepare_all(dev, CELLS)
    days = [{"hours": 12.0, "wind": 3.0}, {"hours": 24.0, "wind": 14.0}]
    for day, weather in enumerate(days, start=1):
        danger = run_forecast(terrain, weather, launches, stream)
        counts: dict[str, int] = {}
        for value in danger:
            label = danger_level(float(value))
            counts[label] = counts.get(label, 0) + 1
        print(f"day {day}: " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
