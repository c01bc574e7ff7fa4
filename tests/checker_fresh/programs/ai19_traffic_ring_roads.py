# fresh-expect: E0133 at line 57
# fresh-note: simulate_road wraps `await advance(...)` in `with simt.unsafe():`, but the launch_unchecked call sits in the advance coroutine, which that block does not cover.
"""Traffic flow on several ring roads with the rule-184 cellular automaton, one coroutine per road.

A cell holds a car (1) or not (0); each step a car moves one cell forward when the cell ahead is free.  Every road is
simulated by its own coroutine and the roads are run together with asyncio.gather; the host measures the flow
(cars moved per cell per step) against the density, the fundamental diagram of traffic.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32, u8
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 500
STEPS = 24
DENSITIES = (0.2, 0.45, 0.7)


@simt.kernel
@simt.launch_contract(block=128)
def rule184(cells: Slice[u8], out: DisjointSlice[u8], n: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        behind = cells[(i + n - 1) % n]
        here = cells[i]
        ahead = cells[(i + 1) % n]
        if here == 1:
            o.set(ahead)
        else:
            o.set(behind)


@dataclass
class Road:
    name: str
    cells: sk.DeviceBuffer
    nxt: sk.DeviceBuffer
    moved: int = 0


def make_road(stream: sk.Stream, name: str, density: float, rng: np.random.Generator) -> Road:
    start = (rng.random(CELLS) < density).astype(np.uint8)
    return Road(name, sk.to_device(start, stream), sk.zeros(CELLS, u8, stream))


async def advance(road: Road, cfg: simt.LaunchConfig1D, stream: sk.Stream) -> None:
    before = road.cells.to_numpy(stream)
    rule184.launch_unchecked(cfg, stream, road.cells, road.nxt, CELLS)
    after = road.nxt.to_numpy(stream)
    road.moved += int(np.sum((before == 1) & (after == 0)))
    road.cells, road.nxt = road.nxt, road.cells
    await asyncio.sleep(0)


async def simulate_road(road: Road, stream: sk.Stream) -> tuple[str, float, float]:
    cfg = simt.LaunchConfig1D((CELLS + 127) // 128, 128)
    cars = int(road.cells.to_numpy(stream).sum())
    for _ in range(STEPS):
        with simt.unsafe():
            await advance(road, cfg, stream)
    assert int(road.cells.to_numpy(stream).sum()) == cars
    return road.name, cars / CELLS, road.moved / (CELLS * STEPS)


async def run_all(stream: sk.Stream) -> list[tuple[str, float, float]]:
    rng = np.random.default_rng(184)
    roads = [make_road(stream, f"ring-{k}", d, rng) for k, d in enumerate(DENSITIES)]
    return list(await asyncio.gather(*(simulate_road(r, stream) for r in roads)))


def main() -> None:
    stream = sk.Device.default().new_stream()
    for name, density, flow in asyncio.run(run_all(stream)):
        expected = min(density, 1.0 - density)
        print(f"{name}: density {density:.2f}, flow {flow:.3f} (rule-184 limit {expected:.3f})")


if __name__ == "__main__":
    main()
