# fresh-expect: clean
# fresh-note: Drone light-show formation step computed with an async SIMT launch on the planning executor, synced in a finally block, after which the target buffer is moved to the show-control executor with `.to()` and launched there with a launch prepared for that device.
"""Formation targets for a drone light show, planned on one executor and flown from another."""
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DRONES = 1536


@simt.kernel
@simt.launch_contract(block=128)
def formation(phase: Slice[f32], target: DisjointSlice[f32], radius: f32, twist: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := target.get_mut(idx)) is not None:
        o.set(radius * math.cos(phase[i] + twist))


@simt.kernel
@simt.launch_contract(block=128)
def clamp_altitude(target: Slice[f32], safe: DisjointSlice[f32], floor_m: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := safe.get_mut(idx)) is not None:
        o.set(max(target[i] + f32(40.0), floor_m))


def plan(planner: sk.Device, stream: sk.Stream, twist: float) -> sk.DeviceBuffer:
    phase = sk.to_device(np.linspace(0.0, 2.0 * math.pi, DRONES, dtype=np.float32), stream)
    target = sk.zeros(DRONES, f32, stream)
    prepared = formation.prepare(simt.LaunchConfig1D.for_len(DRONES, block=128), planner)
    pending = formation.launch_async(prepared, phase, target, 25.0, twist)
    try:
        print(f"planning twist {twist:.2f} rad ...")
    finally:
        pending.sync_on(stream)
    return target


def fly(target: sk.DeviceBuffer, show: sk.Device, show_stream: sk.Stream) -> np.ndarray:
    safe = sk.zeros(DRONES, f32, show_stream)
    prepared = clamp_altitude.prepare(simt.LaunchConfig1D.for_len(DRONES, block=128), show)
    clamp_altitude.launch(prepared, show_stream, target, safe, 20.0)
    return safe.to_numpy(show_stream)


def main() -> None:
    planner, show = sk.Device.cpu(0), sk.Device.cpu(1)
    plan_stream, show_stream = planner.new_stream(), show.new_stream()
    for twist in (0.0, 0.4, 0.8):
        target = plan(planner, plan_stream, twist)
        on_show = target.to(show, show_stream)          # the planner's handle moves with it
        altitudes = fly(on_show, show, show_stream)
        print(f"  lowest drone {altitudes.min():.1f} m, highest {altitudes.max():.1f} m")


if __name__ == "__main__":
    main()
