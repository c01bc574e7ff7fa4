# fresh-expect: E0499 at line 81
# fresh-note: elevator dispatcher that scores every hall call against every car and carves its two output vectors out of one scratch arena; the arena rounds the next offset down to the alignment instead of up, so the second output view overlaps the first and the launch gets two mutable borrows of the same memory.
from __future__ import annotations
from dataclasses import dataclass


import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

CARS = 6
FLOORS = 30


@simt.kernel
@simt.launch_contract(block=32)
def score_calls(call_floor: Slice[i32], call_up: Slice[i32], car_floor: Slice[i32], car_dir: Slice[i32],
                car_load: Slice[f32], best_car: DisjointSlice[f32], best_cost: DisjointSlice[f32]) -> None:
    w_car = thread.index_1d()
    w_cost = thread.index_1d()
    r = w_car.get()
    if r < len(call_floor):
        best = f32(1.0e9)
        pick = f32(-1.0)
        for c in range(CARS):
            dist = f32(abs(call_floor[r] - car_floor[c]))
            heading = car_dir[c]
            toward = (heading == 0) or (heading > 0 and call_floor[r] >= car_floor[c] and call_up[r] == 1) or (
                heading < 0 and call_floor[r] <= car_floor[c] and call_up[r] == 0)
            cost = dist + f32(4.0) * car_load[c]
            if not toward:
                cost += f32(2.0 * FLOORS)
            if cost < best:
                best = cost
                pick = f32(c)
        if (o := best_car.get_mut(w_car)) is not None:
            o.set(pick)
        if (q := best_cost.get_mut(w_cost)) is not None:
            q.set(best)


class ScratchArena:
    """One allocation carved into aligned views, reset between dispatch rounds."""

    ALIGN = 16

    def __init__(self, stream: sk.Stream, capacity: int) -> None:
        self.buf = sk.zeros(capacity, f32, stream)
        self.offset = 0

    def take(self, n: int) -> sk.DeviceBuffer:
        start = self.offset
        end = start + n
        if end > len(self.buf):
            raise MemoryError("arena exhausted")
        self.offset = (end // self.ALIGN) * self.ALIGN
        return self.buf.view(start, end)

    def reset(self) -> None:
        self.offset = 0


@dataclass
class Fleet:
    floor: sk.DeviceBuffer
    direction: sk.DeviceBuffer
    load: sk.DeviceBuffer


def dispatch(fleet: Fleet, calls: np.ndarray, ups: np.ndarray, arena: ScratchArena, dev: sk.Device,
             stream: sk.Stream) -> tuple[np.ndarray, np.ndarray]:
    n = len(calls)
    prepared = score_calls.prepare(simt.LaunchConfig1D.for_len(n, block=32), dev)
    arena.reset()
    cars = arena.take(n)
    costs = arena.take(n)
    score_calls.launch(prepared, stream, sk.to_device(calls, stream), sk.to_device(ups, stream),
                       fleet.floor, fleet.direction, fleet.load, cars, costs)
    return cars.to_numpy(stream).astype(int), costs.to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    fleet = Fleet(
        sk.to_device(rng.integers(0, FLOORS, CARS).astype(np.int32), stream),
        sk.to_device(rng.integers(-1, 2, CARS).astype(np.int32), stream),
        sk.to_device(rng.random(CARS).astype(np.float32), stream),
    )
    arena = ScratchArena(stream, capacity=256)
    calls = rng.integers(0, FLOORS, 40).astype(np.int32)
    ups = rng.integers(0, 2, 40).astype(np.int32)
    cars, costs = dispatch(fleet, calls, ups, arena, dev, stream)
    assert (cars >= 0).all() and (cars < CARS).all()
    print("assignments:", np.bincount(cars, minlength=CARS).tolist(), "mean cost:", float(costs.mean()))


if __name__ == "__main__":
    main()
