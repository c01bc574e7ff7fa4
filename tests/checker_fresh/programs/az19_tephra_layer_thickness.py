# fresh-expect: clean
# fresh-note: Models tephra thickness and mass loading; an lru_cache helper returns the (thickness, mass_loading) prepared launches, unpacked in the same order and looked up per kernel in a dict, so each kernel launches with its own PreparedLaunch.
"""Tephra fallout: thickness and mass loading over a grid of sampling sites for an eruption scenario.

Thickness decays exponentially with the square root of the isopach area (Pyle 1989), here
approximated per site by an elliptical distance from the vent stretched along the wind; mass
loading is thickness times the deposit's bulk density, which depends on distance as the fine,
low-density ash travels further.
"""
from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N_SITES = 900
BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(east_km) >= len(thick_cm)", "len(north_km) >= len(thick_cm)"))
def thickness(east_km: Slice[f32], north_km: Slice[f32], thick_cm: DisjointSlice[f32], t0_cm: f32, k_inv_km: f32,
              stretch: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := thick_cm.get_mut(idx)) is not None:
        downwind = max(east_km[i], f32(0.0)) / stretch + min(east_km[i], f32(0.0)) * stretch
        r = math.sqrt(downwind * downwind + north_km[i] * north_km[i])
        o.set(t0_cm * math.exp(-k_inv_km * r))


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(thick_cm) >= len(load)", "len(east_km) >= len(load)"))
def mass_loading(thick_cm: Slice[f32], east_km: Slice[f32], load: DisjointSlice[f32], rho_near: f32,
                 rho_far: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := load.get_mut(idx)) is not None:
        w = min(abs(east_km[i]) / f32(40.0), f32(1.0))
        rho = rho_near * (f32(1.0) - w) + rho_far * w            # kg/m3
        o.set(thick_cm[i] * f32(0.01) * rho)                      # kg/m2


class Scenario(NamedTuple):
    name: str
    t0_cm: float
    k_inv_km: float
    stretch: float


@functools.lru_cache(maxsize=None)
def launches(dev: sk.Device) -> tuple[simt.PreparedLaunch, simt.PreparedLaunch]:
    cfg = simt.LaunchConfig1D.for_len(N_SITES, block=BLOCK)
    return thickness.prepare(cfg, dev), mass_loading.prepare(cfg, dev)


def site_grid(stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    e, n = np.meshgrid(np.linspace(-20, 70, 30), np.linspace(-30, 30, 30))
    return sk.to_device(e.ravel().astype(np.float32), stream), sk.to_device(n.ravel().astype(np.float32), stream)


def run_scenario(dev: sk.Device, stream: sk.Stream, sc: Scenario, east: sk.DeviceBuffer,
                 north: sk.DeviceBuffer) -> tuple[np.ndarray, np.ndarray]:
    thick_prep, load_prep = launches(dev)
    plan = {thickness: thick_prep, mass_loading: load_prep}
    thick = sk.zeros(N_SITES, f32, stream)
    load = sk.zeros(N_SITES, f32, stream)
    steps = [
        (thickness, (east, north, thick, sc.t0_cm, sc.k_inv_km, sc.stretch)),
        (mass_loading, (thick, east, load, 1400.0, 700.0)),
    ]
    for kernel, args in steps:
        kernel.launch(plan[kernel], stream, *args)
    return thick.to_numpy(stream), load.to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    east, north = site_grid(stream)
    scenarios = [Scenario("VEI 3, weak wind", 35.0, 0.09, 1.5), Scenario("VEI 4, strong westerly", 120.0, 0.05, 3.0)]
    for sc in scenarios:
        thick, load = run_scenario(dev, stream, sc, east, north)
        roofs = np.count_nonzero(load > 100.0)           # ~100 kg/m2: weak roofs start to fail
        print(f"{sc.name:24s}: max {thick.max():6.1f} cm, >1 cm at {np.count_nonzero(thick > 1.0):3d} sites, "
              f"roof-collapse risk at {roofs} sites")


if __name__ == "__main__":
    main()
