# fresh-expect: E0382 at line 56
# fresh-known-miss: cli,mypy one mask tensor pushed with every job into a heapq queue: the first popped job's tile launch moves it, the next popped job uses it
"""Photo batch processor: apply a vignette mask to queued images, most urgent first.

Jobs sit in a heap keyed by priority; the worker pops them one at a time, runs the tile kernel and stores the
mean brightness of each result.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

H, W = 16, 16


@tile.kernel
def vignette(out: Partition[f32], img: Tensor[f32], mask: Tensor[f32]) -> None:
    out.store(tile.load_like(img, out) * tile.load_like(mask, out))


@dataclass(order=True)
class Job:
    priority: int
    seq: int
    name: str = field(compare=False)
    image: Any = field(compare=False)
    mask: Any = field(compare=False)


class Worker:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.queue: list[Job] = []
        self.counter = itertools.count()
        self.results: dict[str, float] = {}

    def submit(self, name: str, image: np.ndarray, mask: Any, priority: int) -> None:
        job = Job(priority, next(self.counter), name, tile.from_numpy(image), mask)
        heapq.heappush(self.queue, job)

    def run_next(self) -> str | None:
        if not self.queue:
            return None
        job = heapq.heappop(self.queue)
        out = tile.zeros((H, W), f32).partition((8, 8))
        out, _, _ = vignette(out, job.image, job.mask).sync_on(self.stream)
        self.results[job.name] = float(out.unpartition().to_numpy(self.stream).mean())
        return job.name

    def drain(self) -> list[str]:
        return list(iter(self.run_next, None))


def radial_mask() -> np.ndarray:
    yy, xx = np.mgrid[0:H, 0:W]
    r = np.hypot(yy - (H - 1) / 2, xx - (W - 1) / 2) / (H / 2)
    return np.clip(1.0 - 0.5 * r * r, 0.0, 1.0).astype(np.float32)


def main() -> None:
    stream = sk.Device.default().new_stream()
    mask = tile.from_numpy(radial_mask()).sync_on(stream)
    worker = Worker(stream)
    rng = np.random.default_rng(9)
    for name, prio in [("beach", 2), ("portrait", 0), ("forest", 1)]:
        worker.submit(name, rng.uniform(0, 1, (H, W)).astype(np.float32), mask, prio)
    order = worker.drain()
    print("processed:", order)
    print({k: round(v, 4) for k, v in worker.results.items()})


if __name__ == "__main__":
    main()
