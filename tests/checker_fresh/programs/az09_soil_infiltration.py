# fresh-expect: E0382 at line 79
# fresh-note: Steps Green-Ampt infiltration over a soil field; absorb() partitions field.theta (moving the NamedTuple's buffer) and the caller keeps using the same field, so the next step's SIMT launch passes the moved field.theta.
"""Green-Ampt infiltration into a field of soil columns during a rain event.

Each cell of the field has a saturated conductivity and a volumetric water content. Every time
step the infiltration capacity is computed per cell (SIMT), capped by the rain rate, and the
water is added to the top layer by a tile kernel that also caps the content at porosity.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N_CELLS = 512
TILE = 128
POROSITY = 0.43
SUCTION_CM = 11.0      # wetting-front suction head, loam
DT_H = 0.25
LAYER_CM = 10.0


@simt.kernel
@simt.launch_contract(block=128, requires=("len(theta) >= len(rate)", "len(k_sat) >= len(rate)"))
def green_ampt(theta: Slice[f32], k_sat: Slice[f32], rate: DisjointSlice[f32], cum_cm: f32, rain_cm_h: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := rate.get_mut(idx)) is not None:
        deficit = max(f32(POROSITY) - theta[i], f32(0.0))
        capacity = k_sat[i] * (f32(1.0) + f32(SUCTION_CM) * deficit / max(cum_cm, f32(0.1)))
        r.set(min(capacity, rain_cm_h))


@tile.kernel
def absorb_layer(theta: Partition[f32], rate: Tensor[f32], dt_over_dz: f32) -> None:
    wet = theta.load() + tile.load_like(rate, theta) * dt_over_dz
    theta.store(tile.minimum(wet, POROSITY))


class SoilField(NamedTuple):
    theta: sk.DeviceBuffer
    k_sat: sk.DeviceBuffer
    label: str


def absorb(field: SoilField, rate: sk.DeviceBuffer, stream: sk.Stream) -> tuple[tile.Tensor, sk.DeviceBuffer]:
    """Add one step's infiltration to the top layer; returns the water content and the rate buffer."""
    parts = field.theta.partition((TILE,))
    parts, rate, _ = absorb_layer(parts, rate, DT_H / LAYER_CM).sync_on(stream)
    return parts.unpartition(), rate


def make_field(rng: np.random.Generator, stream: sk.Stream) -> SoilField:
    k_sat = np.exp(rng.normal(np.log(1.3), 0.6, N_CELLS)).astype(np.float32)     # cm/h, lognormal
    theta = rng.uniform(0.12, 0.22, N_CELLS).astype(np.float32)
    return SoilField(sk.to_device(theta, stream), sk.to_device(k_sat, stream), "plot B7 (loam)")


def hyetograph(steps: int, peak: float = 3.0) -> list[float]:
    return [peak * np.exp(-0.5 * ((k - steps / 3) / (steps / 6)) ** 2) for k in range(steps)]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    field = make_field(np.random.default_rng(7), stream)
    prep = green_ampt.prepare(simt.LaunchConfig1D.for_len(N_CELLS, block=128), dev)
    rate = sk.zeros(N_CELLS, f32, stream)

    cum = np.zeros(N_CELLS, np.float64)
    runoff_cm = 0.0
    history = []
    for step, rain in enumerate(hyetograph(8)):
        green_ampt.launch(prep, stream, field.theta, field.k_sat, rate, float(cum.mean()), rain)
        r = rate.to_numpy(stream)
        cum += r * DT_H
        runoff_cm += float(np.mean(rain - r)) * DT_H
        theta_now, rate = absorb(field, rate, stream)
        history.append(theta_now.to_numpy(stream).mean())
        print(f"t={step * DT_H:4.2f} h rain {rain:4.2f} cm/h infil {r.mean():4.2f} cm/h theta {history[-1]:.3f}")
    print(f"{field.label}: infiltrated {cum.mean():.2f} cm, runoff {runoff_cm:.2f} cm")


if __name__ == "__main__":
    main()
