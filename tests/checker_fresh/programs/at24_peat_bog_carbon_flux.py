# fresh-expect: clean
# fresh-note: Peat bog carbon flux model that shares one water-table constructor op between the methane and CO2 flux launches via shared(), zips the two launches and keeps only their first outputs.
"""Raised peat bog: daily methane and CO2 fluxes from chamber plots driven by one water-table record."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 32


@tile.kernel
def methane_flux(ch4: Partition[f32], water_table_cm: Tensor[f32], soil_temp: Tensor[f32]) -> None:
    depth = tile.load_like(water_table_cm, ch4)
    q10 = tile.exp(0.1 * (tile.load_like(soil_temp, ch4) - 10.0))
    ch4.store(12.0 * q10 * tile.exp(-tile.maximum(depth, 0.0) / 8.0))


@tile.kernel
def respiration(co2: Partition[f32], water_table_cm: Tensor[f32], soil_temp: Tensor[f32]) -> None:
    depth = tile.maximum(tile.load_like(water_table_cm, co2), 0.0)
    q10 = tile.exp(0.08 * (tile.load_like(soil_temp, co2) - 10.0))
    co2.store(2.5 * q10 * (1.0 - tile.exp(-depth / 15.0)) + 0.3)


def season(days: int, seed: int, offset_cm: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    d = np.arange(days)
    water_table = offset_cm + 5.0 + 20.0 * np.sin(np.pi * d / days) ** 2 + rng.normal(0.0, 2.0, days)
    soil_temp = 4.0 + 12.0 * np.sin(np.pi * d / days) + rng.normal(0.0, 1.0, days)
    return water_table.astype(np.float32), soil_temp.astype(np.float32)


class Plot:
    def __init__(self, name: str, days: int, seed: int, offset_cm: float = 0.0) -> None:
        self.name = name
        self.days = days
        self.water_table, self.soil_temp = season(days, seed, offset_cm)

    def fluxes(self, stream: sk.Stream) -> tuple[np.ndarray, np.ndarray]:
        water = tile.from_numpy(self.water_table).shared()
        temp = tile.from_numpy(self.soil_temp).shared()
        ch4 = tile.zeros((self.days,), f32).partition((TILE,))
        co2 = tile.zeros((self.days,), f32).partition((TILE,))
        both = sk.zip(methane_flux(ch4, water, temp).first(), respiration(co2, water, temp).first())
        ch4, co2 = both.sync_on(stream)
        return ch4.unpartition().to_numpy(stream), co2.unpartition().to_numpy(stream)


def carbon_balance(ch4_mg: np.ndarray, co2_g: np.ndarray) -> float:
    gwp_ch4 = 27.0
    return float(co2_g.sum() + ch4_mg.sum() / 1000.0 * gwp_ch4)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    plots = [Plot("hummock", 150, 1, 12.0), Plot("lawn", 150, 2), Plot("hollow", 150, 3, -6.0)]
    for plot in plots:
        ch4, co2 = plot.fluxes(stream)
        peak = int(np.argmax(ch4))
        print(f"{plot.name:8s} CH4 peak {ch4[peak]:.1f} mg/m2/d on day {peak}, "
              f"season CO2-eq {carbon_balance(ch4, co2):.0f} g/m2")


if __name__ == "__main__":
    main()
