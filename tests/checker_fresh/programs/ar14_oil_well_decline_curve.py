# fresh-expect: clean
# fresh-note: oil well Arps decline forecasts; one forecast op per well is built by a helper and every op is zipped and run, with shut-in wells filtered only when the results are reported.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition

MONTHS = 120
TILE = (40,)


@tile.kernel
def arps_rate(rate: Partition[f32], q0: f32, di: f32, b: f32) -> None:
    width = rate.tile_shape[0]
    t = tile.iota(width, f32) + tile.bid(0) * width
    rate.store(q0 * tile.exp(-tile.log(1.0 + b * di * t) / b))


@dataclass(frozen=True)
class Well:
    api: str
    q0_bbl_d: float
    di_per_month: float
    b: float
    shut_in: bool = False


def forecast_op(well: Well) -> sk.DeviceOp:
    out = tile.zeros((MONTHS,), f32).partition(TILE)
    return arps_rate(out, well.q0_bbl_d, well.di_per_month, well.b).first()


def eur_bbl(rates: np.ndarray, economic_limit: float) -> float:
    producing = rates[rates > economic_limit]
    return float(producing.sum() * 30.4)


def forecast_field(wells: list[Well], stream: sk.Stream) -> dict[str, np.ndarray]:
    ops = [forecast_op(w) for w in wells]
    parts = sk.zip(*ops).sync_on(stream)
    curves = {}
    for well, part in zip(wells, parts):
        if well.shut_in:
            continue
        curves[well.api] = part.unpartition().to_numpy(stream)
    return curves


def main() -> None:
    wells = [
        Well("42-501-10001", 850.0, 0.08, 0.9),
        Well("42-501-10002", 420.0, 0.05, 0.6),
        Well("42-501-10003", 300.0, 0.12, 1.2, shut_in=True),
    ]
    stream = sk.Device.cpu().new_stream()
    curves = forecast_field(wells, stream)
    for api, curve in curves.items():
        print(f"{api}: year-1 avg {curve[:12].mean():6.1f} bbl/d, EUR {eur_bbl(curve, 15.0) / 1e3:7.1f} kbbl")
    check = curves["42-501-10001"][12]
    assert abs(check - 850.0 / (1 + 0.9 * 0.08 * 12) ** (1 / 0.9)) < 1e-2


if __name__ == "__main__":
    main()
