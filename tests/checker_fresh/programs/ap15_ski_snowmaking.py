# fresh-expect: E0502 at line 78
# fresh-note: Ski-resort snowmaking planner; scratch buffers come from an lru_cache keyed only by length, so the wet-bulb buffer and the flow buffer are one object and the flow launch reads and writes it.
"""Nightly snowmaking plan: wet-bulb temperature per snow gun, then the water flow each gun can take."""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.dtypes import f32

DEVICE = sk.Device.cpu()
STREAM = DEVICE.new_stream()
MAX_FLOW_LPS = 12.0


@simt.kernel
@simt.launch_contract(block=64)
def wet_bulb(temp: Slice[f32], rh: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        t = temp[i]
        h = rh[i]
        # Stull (2011) empirical fit, good to ~0.3 C for 5-99 % RH
        o.set(t * math.atan(0.151977 * math.sqrt(h + 8.313659)) + math.atan(t + h)
              - math.atan(h - 1.676331) + 0.00391838 * h ** 1.5 * math.atan(0.023101 * h) - 4.686035)


@simt.kernel
@simt.launch_contract(block=64)
def gun_flow(wet: Slice[f32], flow: DisjointSlice[f32], max_flow: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := flow.get_mut(idx)) is not None:
        margin = -2.5 - wet[i]            # guns start making snow below -2.5 C wet-bulb
        o.set(min(max(margin * 0.22, 0.0), 1.0) * max_flow)


@functools.lru_cache(maxsize=None)
def workspace(n: int) -> sk.DeviceBuffer:
    """Reuse device scratch between hourly plans instead of allocating every time."""
    return sk.zeros(n, f32, STREAM)


@functools.lru_cache(maxsize=8)
def plans(n: int):
    cfg = simt.LaunchConfig1D.for_len(n, block=64)
    return wet_bulb.prepare(cfg, DEVICE), gun_flow.prepare(cfg, DEVICE)


@dataclass
class Gun:
    trail: str
    altitude_m: float


def forecast(guns: list[Gun], hour: int) -> tuple[np.ndarray, np.ndarray]:
    alt = np.array([g.altitude_m for g in guns], np.float32)
    temp = 1.0 - 0.0065 * (alt - 1200.0) - 0.6 * min(hour, 6)
    rh = np.full(len(guns), 70.0 - 2.0 * hour, np.float32)
    return temp.astype(np.float32), rh


def plan_hour(guns: list[Gun], hour: int) -> np.ndarray:
    n = len(guns)
    temp_np, rh_np = forecast(guns, hour)
    temp = sk.to_device(temp_np, STREAM)
    rh = sk.to_device(rh_np, STREAM)
    wet_launch, flow_launch = plans(n)
    wet = workspace(n)
    wet_bulb.launch(wet_launch, STREAM, temp, rh, wet)
    flow = workspace(n)
    gun_flow.launch(flow_launch, STREAM, wet, flow, MAX_FLOW_LPS)
    return flow.to_numpy(STREAM)


def main() -> None:
    trails = {"Gully": 1450.0, "Panorama": 1820.0, "Nursery": 1180.0}
    guns = [Gun(name, alt + 15.0 * k) for name, alt in trails.items() for k in range(40)]
    total_m3 = 0.0
    for hour in range(8):
        flows = plan_hour(guns, hour)
        total_m3 += float(flows.sum()) * 3600 / 1000
        running = int((flows > 0).sum())
        print(f"{(18 + hour) % 24:02d}:00  {running:3d}/{len(guns)} guns running, {flows.sum():7.1f} L/s")
    print(f"night total: {total_m3:,.0f} m3 of water")


if __name__ == "__main__":
    main()
