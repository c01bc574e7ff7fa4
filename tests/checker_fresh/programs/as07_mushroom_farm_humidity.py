# fresh-expect: clean
# fresh-note: Mushroom-farm humidity control; one launch writes the dry and wet deficits into the two `split_at` halves of a per-room arena, timed by a contextmanager.
"""Grow-room humidity deficits for a mushroom farm, one arena buffer per room."""
from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SHELVES = 120
SETPOINTS = {"pinning": 95.0, "fruiting": 88.0, "spawn_run": 92.0}


@simt.kernel
@simt.launch_contract(block=64)
def humidity_split(rh: Slice[f32], dry: DisjointSlice[f32], wet: DisjointSlice[f32], setpoint: f32) -> None:
    first = thread.index_1d()
    i = first.get()
    if (d := dry.get_mut(first)) is not None:
        d.set(max(setpoint - rh[i], 0.0))
    second = thread.index_1d()
    if (w := wet.get_mut(second)) is not None:
        w.set(max(rh[i] - setpoint, 0.0))


@dataclass
class GrowRoom:
    name: str
    stage: str
    readings: sk.DeviceBuffer
    arena: sk.DeviceBuffer
    log: list[str] = field(default_factory=list)

    @property
    def setpoint(self) -> float:
        return SETPOINTS[self.stage]


@contextmanager
def timed(label: str, sink: list[str]) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        sink.append(f"{label}: {1000 * (time.perf_counter() - start):.1f} ms")


def make_room(name: str, stage: str, seed: int, stream: sk.Stream) -> GrowRoom:
    rng = np.random.default_rng(seed)
    rh = np.clip(rng.normal(SETPOINTS[stage], 3.0, SHELVES), 60.0, 100.0).astype(np.float32)
    return GrowRoom(name, stage, sk.to_device(rh, stream), sk.zeros(2 * SHELVES, f32, stream))


def evaluate(room: GrowRoom, prepared: simt.PreparedLaunch, stream: sk.Stream) -> tuple[float, float]:
    dry, wet = room.arena.split_at(SHELVES)
    with timed(room.name, room.log):
        humidity_split.launch(prepared, stream, room.readings, dry, wet, room.setpoint)
    both = room.arena.to_numpy(stream)
    return float(both[:SHELVES].mean()), float(both[SHELVES:].mean())


def actuator_plan(dry_mean: float, wet_mean: float) -> str:
    if dry_mean > 2.0 and dry_mean > wet_mean:
        return "misters on"
    if wet_mean > 2.0:
        return "exhaust fans up"
    return "hold"


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = humidity_split.prepare(simt.LaunchConfig1D.for_len(SHELVES, block=64), dev)
    rooms = [make_room(f"room-{k}", stage, k, stream) for k, stage in enumerate(SETPOINTS)]
    plans = {}
    for room in rooms:
        dry_mean, wet_mean = evaluate(room, prepared, stream)
        plans[room.name] = actuator_plan(dry_mean, wet_mean)
        print(f"{room.name} ({room.stage:9s}) dry {dry_mean:4.2f} wet {wet_mean:4.2f} -> {plans[room.name]}")
    busy = [name for name, plan in plans.items() if plan != "hold"]
    print("rooms needing action:", ", ".join(busy) if busy else "none")
    print("; ".join(line for room in rooms for line in room.log))


if __name__ == "__main__":
    main()
