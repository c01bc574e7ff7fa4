# fresh-expect: E0382 at line 56
# fresh-note: Hut occupancy is partitioned at the top of each night's while-loop iteration, but the storm-night branch continues without unpartitioning, so the next iteration partitions the already-moved `occupancy`.
"""Alpine hut network: nightly occupancy forecast from bookings and the weather window.

Each night the occupancy vector is partitioned per valley, pushed through the forecast kernel
with the night's bookings, and unpartitioned again. Storm nights close the huts, so the loop
skips the forecast for them.
"""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

HUTS = 96
VALLEY = (24,)
NIGHTS = 7
CAPACITY = 60.0


@tile.kernel
def forecast(occupancy: Partition[f32], bookings: Tensor[f32], walk_ins: f32, capacity: f32) -> None:
    occ = occupancy.load()
    booked = tile.load_like(bookings, occupancy)
    leaving = occ * 0.35
    occupancy.store(tile.minimum(occ - leaving + booked + walk_ins, capacity))


def weather_window(rng: np.random.Generator) -> list[bool]:
    storms = [False] * NIGHTS
    storms[2] = True  # a foehn storm is forecast for Wednesday
    for night in range(NIGHTS):
        storms[night] = storms[night] or bool(rng.random() < 0.05)
    return storms


def nightly_bookings(rng: np.random.Generator, night: int) -> np.ndarray:
    weekend = 1.6 if night in (4, 5) else 1.0
    return (rng.poisson(8.0 * weekend, HUTS)).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1863)

    storms = weather_window(rng)
    occupancy = tile.from_numpy(rng.uniform(10.0, 40.0, HUTS).astype(np.float32))
    history: list[np.ndarray] = []

    night = 0
    while night < NIGHTS:
        parts = occupancy.partition(VALLEY)
        if storms[night]:
            print(f"night {night}: storm, huts closed")
            night += 1
            continue
        bookings = tile.from_numpy(nightly_bookings(rng, night))
        walk_ins = 3.0 if night % 7 in (5, 6) else 1.0
        parts, _bookings, _w, _c = forecast(parts, bookings, walk_ins, CAPACITY).sync_on(stream)
        occupancy = parts.unpartition()
        snapshot = occupancy.to_numpy(stream)
        history.append(snapshot)
        full = int((snapshot >= CAPACITY).sum())
        print(f"night {night}: mean {snapshot.mean():5.1f}, {full} huts full")
        night += 1

    week = np.stack(history)
    print("busiest hut:", int(np.argmax(week.mean(axis=0))), "peak night:", int(np.argmax(week.mean(axis=1))))


if __name__ == "__main__":
    main()
