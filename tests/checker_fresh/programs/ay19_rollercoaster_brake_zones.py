# fresh-expect: E0133 at line 46
# fresh-note: Roller-coaster maintenance trains use launch_unchecked inside a helper, called from within `with simt.unsafe():` in the dispatcher; unsafe is lexical, so the helper's call is outside any unsafe block.
"""Roller coaster block brakes: required magnetic brake force per fin for each train arrival.

Trains are dispatched from a queue; long trains go through the prepared, contract-checked
launch, while the short maintenance trains use a hand-tuned unchecked launch. The dispatcher
wraps the fast path in `with simt.unsafe():`, but the unchecked call itself lives in a helper.
"""
from __future__ import annotations

import queue
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FINS = 64
TARGET_SPEED = 4.0  # m/s leaving the brake run


@simt.kernel
@simt.launch_contract(block=64)
def brake_force(speed: Slice[f32], mass: Slice[f32], force: DisjointSlice[f32], target: f32, run: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (f := force.get_mut(idx)) is not None:
        v = speed[i]
        excess = max(v * v - target * target, 0.0)
        f.set(mass[i] * excess / (2.0 * run))


@dataclass
class Train:
    name: str
    cars: int
    speed: float
    maintenance: bool = False


def _fire_unchecked(stream: sk.Stream, speed, mass, force, run: float) -> None:
    cfg = simt.LaunchConfig1D(grid=1, block=64)
    brake_force.launch_unchecked(cfg, stream, speed, mass, force, TARGET_SPEED, run)


def dispatch(dev: sk.Device, stream: sk.Stream, train: Train, prepared) -> np.ndarray:
    speed = sk.to_device(np.linspace(train.speed, train.speed * 0.97, FINS, dtype=np.float32), stream)
    mass = sk.to_device(np.full(FINS, 450.0 * train.cars / FINS, np.float32), stream)
    force = sk.zeros(FINS, f32, stream)
    run = 18.0 if train.cars > 4 else 12.0
    if train.maintenance:
        with simt.unsafe():  # one block covers all fins, checked by hand
            _fire_unchecked(stream, speed, mass, force, run)
    else:
        brake_force.launch(prepared, stream, speed, mass, force, TARGET_SPEED, run)
    return force.to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prepared = brake_force.prepare(simt.LaunchConfig1D.for_len(FINS, block=64), dev)

    arrivals: queue.Queue[Train] = queue.Queue()
    for train in (
        Train("red", 6, 21.5),
        Train("blue", 6, 19.8),
        Train("work-car", 2, 8.0, maintenance=True),
        Train("green", 5, 22.3),
    ):
        arrivals.put(train)

    while not arrivals.empty():
        train = arrivals.get()
        try:
            force = dispatch(dev, stream, train, prepared)
        except sk.KernelTrapError as exc:
            print(f"{train.name}: brake computation trapped ({exc}); holding train")
            continue
        finally:
            arrivals.task_done()
        print(f"{train.name:>8}: peak fin force {force.max():8.1f} N, total {force.sum() / 1000.0:6.2f} kN")


if __name__ == "__main__":
    main()
