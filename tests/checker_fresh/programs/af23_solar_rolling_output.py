# fresh-expect: E0502 at line 75
# fresh-note: found since: an item under a literal key of a container the checker did not see built (`self.window[0]`, `self.window[2]`) is one object per key until a statement may change it (`self.window.append(ac)` forgets them), so `spare` read after the append is `self.window[0]` (core keyed_items)
"""Three-hour rolling AC output of a solar farm, panel by panel.

Every hour a tile kernel turns irradiance and cell temperature into per-panel AC power
(temperature-derated DC, clipped at the inverter limit).  The hourly results are lent to a
SIMT kernel through `as_buffer()` and kept in a rolling window; the kernel averages the
window.  To avoid an allocation per hour, the buffer that drops out of the window is recycled
as the output of the average.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 128
WIDTH = 3


@tile.kernel
def panel_ac(out: Partition[f32], irr: Tensor[f32], temp: Tensor[f32], area_eff: f32, coeff: f32,
             limit: f32) -> None:
    dc = tile.load_like(irr, out) * area_eff * (1.0 - (tile.load_like(temp, out) - 25.0) * coeff)
    out.store(tile.minimum(dc, limit))


@simt.autotune(configs=[64, 128, 256], key=["a"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def mean3(a: Slice[f32], b: Slice[f32], c: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((a[i] + b[i] + c[i]) / 3.0)


@dataclass(frozen=True)
class Plant:
    panels: int
    area_eff: float = 1.7 * 0.2  # m^2 times module efficiency
    temp_coeff: float = 0.004  # relative loss per degree above 25 C
    inverter_w: float = 300.0


class RollingOutput:
    def __init__(self, plant: Plant, stream: sk.Stream) -> None:
        self.plant = plant
        self.stream = stream
        self.window: deque[sk.DeviceBuffer] = deque(maxlen=WIDTH)

    def hourly_ac(self, irr: np.ndarray, temp: np.ndarray) -> sk.DeviceBuffer:
        p = self.plant
        out = tile.zeros((p.panels,), f32).partition((TILE,))
        op = panel_ac(out, tile.from_numpy(irr), tile.from_numpy(temp), p.area_eff, p.temp_coeff, p.inverter_w)
        out, *_ = op.sync_on(self.stream)
        return out.unpartition().as_buffer()

    def push(self, irr: np.ndarray, temp: np.ndarray) -> np.ndarray | None:
        ac = self.hourly_ac(irr, temp)
        self.window.append(ac)
        spare = self.window[0] if len(self.window) == WIDTH else None
        if len(self.window) < WIDTH:
            return None
        out = spare if spare is not None else sk.zeros(self.plant.panels, f32, self.stream)
        mean3.launch(self.stream, self.window[0], self.window[1], self.window[2], out)
        return out.to_numpy(self.stream)


def weather(panels: int, hours: range, seed: int = 9) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    shade = rng.uniform(0.7, 1.0, panels)
    for hour in hours:
        sun = max(0.0, np.sin(np.pi * (hour - 6) / 12.0))
        clouds = rng.uniform(0.6, 1.0, panels)
        temp = 18.0 + 15.0 * sun + rng.normal(0.0, 1.0, panels)
        yield (1000.0 * sun * shade * clouds).astype(np.float32), temp.astype(np.float32)


def reference(plant: Plant, irr: np.ndarray, temp: np.ndarray) -> np.ndarray:
    dc = irr * plant.area_eff * (1.0 - (temp - 25.0) * plant.temp_coeff)
    return np.minimum(dc, plant.inverter_w)


def main() -> None:
    plant = Plant(panels=500)
    rolling = RollingOutput(plant, sk.Device.cpu().new_stream())
    history: list[np.ndarray] = []
    for hour, (irr, temp) in zip(range(6, 19), weather(plant.panels, range(6, 19))):
        history.append(reference(plant, irr, temp))
        avg = rolling.push(irr, temp)
        if avg is None:
            continue
        np.testing.assert_allclose(avg, np.mean(history[-WIDTH:], axis=0), rtol=1e-4, atol=1e-3)
        print(f"{hour:02d}:00 rolling farm output {avg.sum() / 1000.0:7.2f} kW")


if __name__ == "__main__":
    main()
