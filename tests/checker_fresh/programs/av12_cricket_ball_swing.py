# fresh-expect: E0308 at line 55
# fresh-known-false-alarm: cli,mypy E0308 at line 56 too: the lift launch gets the drag's prepared launch as well, which the runtime never reaches once line 55 raises (a cascade of the same bug)
# fresh-note: Cricket-ball swing model whose functools.cache'd helper builds a Plans NamedTuple positionally in (lift, drag) order while the fields are (drag, lift), so the seam-drag kernel is launched with the launch prepared for the Magnus-lift kernel.
"""Lateral swing of a cricket delivery from seam drag and Magnus lift."""
from __future__ import annotations
import functools
import math
from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DELIVERIES = 1500
RHO = 1.2
AREA = 0.0041


@simt.kernel
@simt.launch_contract(block=128)
def seam_drag(speed: Slice[f32], seam_angle: Slice[f32], force: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := force.get_mut(idx)) is not None:
        o.set(k * speed[i] * speed[i] * math.sin(f32(2.0) * seam_angle[i]))


@simt.kernel
@simt.launch_contract(block=128)
def magnus_lift(speed: Slice[f32], spin: Slice[f32], force: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := force.get_mut(idx)) is not None:
        o.set(k * speed[i] * spin[i])


class Plans(NamedTuple):
    drag: simt.PreparedLaunch
    lift: simt.PreparedLaunch


@functools.cache
def plans_for(n: int, dev: sk.Device) -> Plans:
    cfg = simt.LaunchConfig1D.for_len(n, block=128)
    return Plans(magnus_lift.prepare(cfg, dev), seam_drag.prepare(cfg, dev))


def lateral_deviation(speed, seam, spin, dev: sk.Device, stream: sk.Stream) -> np.ndarray:
    plans = plans_for(len(speed), dev)
    side = sk.zeros(len(speed), f32, stream)
    magnus = sk.zeros(len(speed), f32, stream)
    seam_drag.launch(plans.drag, stream, speed, seam, side, 0.5 * RHO * AREA * 0.3)
    magnus_lift.launch(plans.lift, stream, speed, spin, magnus, 0.5 * RHO * AREA * 0.03)
    accel = (side.to_numpy(stream) + magnus.to_numpy(stream)) / 0.16
    flight = 20.12 / np.maximum(speed.to_numpy(stream), 1.0)
    return 0.5 * accel * flight * flight


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(2)
    speed = sk.to_device(rng.uniform(30.0, 42.0, DELIVERIES).astype(np.float32), stream)
    seam = sk.to_device(np.radians(rng.uniform(-20.0, 20.0, DELIVERIES)).astype(np.float32), stream)
    spin = sk.to_device(rng.uniform(-30.0, 30.0, DELIVERIES).astype(np.float32), stream)
    dev_m = lateral_deviation(speed, seam, spin, dev, stream)
    print(f"mean |swing| {np.abs(dev_m).mean() * 100:.1f} cm, max {np.abs(dev_m).max() * 100:.1f} cm")


if __name__ == "__main__":
    main()
