# fresh-expect: clean
# fresh-note: Parade route congestion jobs are processed by two work-stealing workers (popleft own deque, pop the other's); each job's partition is synced and handed back, and the shared speed-limit op is read by every launch.
"""Carnival parade: street congestion per float route, computed by two work-stealing workers.
Each route job owns its congestion partition; the street speed limits are one shared op that
every launch reads. A worker takes from the front of its own deque and steals from the back of
the other's when it runs dry; each job is synced and its partition handed back before the
result is stored.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SEGMENTS = 64
TILE = (16,)


@tile.kernel
def congestion(load: Partition[f32], limits: Tensor[f32], crowd: f32) -> None:
    speed = tile.load_like(limits, load)
    q = load.load()
    load.store(q * crowd / tile.maximum(speed, 1.0))


@dataclass
class Job:
    route: str
    load: object  # a Partition of the route's street segments
    crowd: float


@dataclass
class Worker:
    name: str
    queue: deque = field(default_factory=deque)
    done: int = 0


def make_jobs(rng: np.random.Generator) -> list[Job]:
    routes = ["samba_school", "brass_band", "giant_puppets", "dragon", "steel_drums", "stilt_walkers"]
    jobs = []
    for route in routes:
        load = tile.from_numpy(rng.uniform(0.5, 3.0, SEGMENTS).astype(np.float32)).partition(TILE)
        jobs.append(Job(route, load, float(rng.uniform(1.0, 4.0))))
    return jobs


def next_job(me: Worker, other: Worker) -> Job | None:
    if me.queue:
        return me.queue.popleft()
    if other.queue:
        print(f"  {me.name} steals from {other.name}")
        return other.queue.pop()
    return None


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(2024)

    limits = tile.from_numpy(rng.choice([10.0, 20.0, 30.0], SEGMENTS).astype(np.float32)).shared()
    jobs = make_jobs(rng)
    left, right = Worker("left"), Worker("right")
    left.queue.extend(jobs[:5])  # the left worker got the long routes
    right.queue.extend(jobs[5:])

    results: dict[str, np.ndarray] = {}
    turn = 0
    while left.queue or right.queue:
        me, other = (left, right) if turn % 2 == 0 else (right, left)
        turn += 1
        job = next_job(me, other)
        if job is None:
            continue
        load, _limits, _crowd = congestion(job.load, limits, job.crowd).sync_on(stream)
        job.load = load
        results[job.route] = load.unpartition().to_numpy(stream)
        me.done += 1

    for route, q in sorted(results.items(), key=lambda kv: -kv[1].max()):
        print(f"{route:>14}: worst segment {int(np.argmax(q)):2d}, load {q.max():6.3f}")
    print(f"left ran {left.done}, right ran {right.done}")


if __name__ == "__main__":
    main()
