# fresh-expect: clean
# fresh-note: Rickshaw dispatch ops are kept round-robin in a deque with at most two in flight; the oldest op is synced and its zone partition put back in the table before the next op is queued, and the zone is popped from the table when launched.
"""Cycle-rickshaw dispatch across old-town zones, round-robin with two ops in flight.

Each zone's fleet allocation is a partition that a dispatch op owns while it is in flight.
At most WINDOW ops are outstanding; before a new op is queued the oldest is synced and its
zone's partition is put back in the table, so a zone is only launched again once returned.
"""
from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

STANDS = 48
TILE = (16,)
ZONES = ("bazaar", "riverfront", "fort", "station")
WINDOW = 2
ROUNDS = 3


@tile.kernel
def dispatch(fleet: Partition[f32], fares: Tensor[f32], demand: Tensor[f32]) -> None:
    have = fleet.load()
    want = tile.load_like(demand, fleet)
    fare = tile.load_like(fares, fleet)
    pull = tile.minimum(want - have, fare * 0.5)
    fleet.store(tile.maximum(have + pull, 0.0))


def hourly_demand(rng: np.random.Generator, zone: str, rnd: int) -> np.ndarray:
    base = {"bazaar": 6.0, "riverfront": 3.0, "fort": 4.5, "station": 8.0}[zone]
    rush = 1.8 if rnd == 1 else 1.0
    return rng.poisson(base * rush, STANDS).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1880)

    fares = tile.from_numpy(rng.uniform(2.0, 9.0, STANDS).astype(np.float32)).shared()
    fleets = {zone: tile.full((STANDS,), 2.0, f32).partition(TILE) for zone in ZONES}
    inflight: deque = deque()
    launched = 0

    for rnd in range(ROUNDS):
        for zone in ZONES:
            if len(inflight) == WINDOW:
                done_zone, op = inflight.popleft()
                fleets[done_zone], _fares, _demand = op.sync_on(stream)
            demand = tile.from_numpy(hourly_demand(rng, zone, rnd))
            inflight.append((zone, dispatch(fleets.pop(zone), fares, demand)))
            launched += 1

    while inflight:
        done_zone, op = inflight.popleft()
        fleets[done_zone], _fares, _demand = op.sync_on(stream)

    print(f"{launched} dispatch ops over {ROUNDS} rounds")
    for zone in ZONES:
        riders = fleets[zone].to_numpy(stream)
        print(f"{zone:>10}: {riders.sum():6.1f} rickshaws, busiest stand {int(np.argmax(riders))}")


if __name__ == "__main__":
    main()
