# fresh-expect: clean
# fresh-note: Pollen forecast: an autotuned tile dispersion kernel's output tensor is lent via the `grains` property (`as_buffer`) to a SIMT risk-level kernel that writes its own separate i32 buffer (clean twin of the AQI program).
"""Grass pollen forecast: dispersion of source emissions over a region grid, then allergy risk levels.

An autotuned tile kernel turns source emissions, wind and rain into airborne grain concentrations; the
resulting tensor is lent to a SIMT kernel through `as_buffer` (no copy), which writes a risk level per cell
into its own buffer.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 256
GRID = 96 * 96


@tile.autotune(configs=[tile.Config(BLOCK=256), tile.Config(BLOCK=1024)], key=["emission"], warmup=1, rep=3)
@tile.kernel
def dispersion(out: Annotated[Partition[f32], tile.Dims(BLOCK)], emission: Tensor[f32], wind: Tensor[f32],
               rain: Tensor[f32]) -> None:
    e = tile.load_like(emission, out)
    w = tile.load_like(wind, out)
    mixing = w / (1.0 + 0.15 * w * w)  # moderate wind lifts grains, strong wind dilutes them
    out.store(e * mixing * tile.exp(-0.6 * tile.load_like(rain, out)))


@simt.kernel
@simt.launch_contract(block=128)
def risk_level(grains: Slice[f32], level: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := level.get_mut(idx)) is not None:
        g = grains[i]
        out.set(i32(g >= f32(10.0)) + i32(g >= f32(50.0)) + i32(g >= f32(150.0)))


class PollenForecast:
    def __init__(self, region: str, device: sk.Device, stream: sk.Stream) -> None:
        self.region = region
        self.stream = stream
        self.prepared = risk_level.prepare(simt.LaunchConfig1D.for_len(GRID, block=128), device)
        self.levels = sk.zeros(GRID, i32, stream)
        self._grains: tile.Tensor | None = None

    @property
    def grains(self) -> sk.DeviceBuffer:
        assert self._grains is not None, "run disperse() first"
        return self._grains.as_buffer()

    def disperse(self, emission: np.ndarray, wind: np.ndarray, rain: np.ndarray) -> None:
        inputs = [tile.from_numpy(a.astype(np.float32)) for a in (emission, wind, rain)]
        self._grains, *_ = dispersion(tile.zeros((GRID,), f32), *inputs).sync_on(self.stream)

    def risk(self) -> np.ndarray:
        risk_level.launch(self.prepared, self.stream, self.grains, self.levels)
        return self.levels.to_numpy(self.stream)


def day_inputs(rng: np.random.Generator, day: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    meadows = rng.gamma(2.0, 60.0, GRID) * (rng.random(GRID) < 0.35)
    wind = np.full(GRID, 2.0 + 1.5 * day) + rng.normal(0.0, 0.5, GRID)
    rain = np.clip(rng.normal(0.0 if day < 2 else 3.0, 0.5, GRID), 0.0, None)
    return meadows, np.clip(wind, 0.0, None), rain


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    forecast = PollenForecast("Rhine valley", device, stream)
    rng = np.random.default_rng(606)
    names = ("low", "moderate", "high", "very high")
    for day in range(4):
        forecast.disperse(*day_inputs(rng, day))
        levels = forecast.risk()
        worst = names[int(np.percentile(levels, 90))]
        share = np.bincount(levels, minlength=4) / GRID
        print(f"day {day}: 90th percentile risk {worst:<9} " + " ".join(f"{s:4.0%}" for s in share))


if __name__ == "__main__":
    main()
