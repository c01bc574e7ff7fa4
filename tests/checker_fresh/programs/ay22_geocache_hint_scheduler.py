# fresh-expect: clean
# fresh-note: Geocache hint heatmap ops come from a helper that returns None early for easy caches; the ops wait in a difficulty heap and are all drained with `while heap:` before any heatmap is read, with one shared terrain op.
"""Geocaching event: schedule hint-heatmap jobs for the caches by difficulty rating.

A helper builds a lazy scoring op per cache, or returns None early for easy caches that get
no hint. The ops wait in a heap ordered by difficulty (hardest first) and are all drained
before any heatmap is read; the terrain model is one shared op read by every job.
"""
from __future__ import annotations

import heapq
import itertools

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

GRID = (32, 32)
TILE = (16, 16)


@tile.kernel
def hint_heat(heat: Partition[f32], terrain: Tensor[f32], clue: Tensor[f32], difficulty: f32) -> None:
    t = tile.load_like(terrain, heat)
    c = tile.load_like(clue, heat)
    heat.store(c * tile.exp(-t * (difficulty / 5.0)))


def plan_hint(cache: dict, terrain: sk.DeviceOp, rng: np.random.Generator) -> sk.DeviceOp | None:
    if cache["difficulty"] < 2.0:
        return None  # traditional caches: no hint heatmap
    yy, xx = np.mgrid[0 : GRID[0], 0 : GRID[1]]
    cy, cx = cache["pos"]
    clue = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2.0 * cache["radius"] ** 2))
    clue += rng.normal(0.0, 0.02, GRID)
    heat = tile.zeros(GRID, f32).partition(TILE)
    return hint_heat(heat, terrain, tile.from_numpy(clue.astype(np.float32)), cache["difficulty"])


CACHES = [
    {"code": "GC1A2B", "difficulty": 1.5, "pos": (4, 4), "radius": 3.0},
    {"code": "GC7F00", "difficulty": 4.5, "pos": (20, 9), "radius": 5.0},
    {"code": "GC3E11", "difficulty": 3.0, "pos": (12, 25), "radius": 4.0},
    {"code": "GC9D2C", "difficulty": 5.0, "pos": (28, 28), "radius": 2.5},
    {"code": "GC5B7A", "difficulty": 2.0, "pos": (8, 18), "radius": 6.0},
]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(2000)

    terrain = tile.from_numpy(rng.uniform(0.0, 3.0, GRID).astype(np.float32)).shared()
    heap: list[tuple[float, int, str, sk.DeviceOp]] = []
    order = itertools.count()
    skipped = []
    for cache in CACHES:
        op = plan_hint(cache, terrain, rng)
        if op is None:
            skipped.append(cache["code"])
            continue
        heapq.heappush(heap, (-cache["difficulty"], next(order), cache["code"], op))

    heatmaps: dict[str, np.ndarray] = {}
    while heap:
        neg_difficulty, _, code, op = heapq.heappop(heap)
        heat, _terrain, _clue, _d = op.sync_on(stream)
        heatmaps[code] = heat.unpartition().to_numpy(stream)
        print(f"{code}: D{-neg_difficulty:.1f} heatmap ready")

    for code, heat in heatmaps.items():
        y, x = np.unravel_index(int(np.argmax(heat)), heat.shape)
        print(f"{code}: search near ({y}, {x}), mass {heat.sum():7.2f}")
    print("no hint needed for:", ", ".join(skipped))


if __name__ == "__main__":
    main()
