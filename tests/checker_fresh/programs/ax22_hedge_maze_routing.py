# fresh-expect: clean
# fresh-note: Finds walking distances through a hedge maze by ping-pong relaxation with scratch buffers lent by a pool's contextmanager and an atomic change counter; the swap keeps input and output distinct and each buffer is used by one launch at a time.
"""Hedge-maze routing: shortest walking distance from the entrance to every garden cell, for the visitor map."""
from __future__ import annotations

import contextlib
from collections import deque
from typing import Iterator, NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

SIDE = 16
CELLS = SIDE * SIDE
BLOCK = 64
FAR = 1.0e9


@simt.kernel
@simt.launch_contract(block=BLOCK)
def relax(dist: Slice[f32], hedge: Slice[i32], out: DisjointSlice[f32], changed: AtomicSlice[i32], width: int) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        best = dist[i]
        if hedge[i] == 0:
            col = i % width
            if col > 0:
                best = min(best, dist[i - 1] + 1.0)
            if col + 1 < width:
                best = min(best, dist[i + 1] + 1.0)
            if i >= width:
                best = min(best, dist[i - width] + 1.0)
            if i + width < len(dist):
                best = min(best, dist[i + width] + 1.0)
        if best < dist[i]:
            changed.fetch_add(0, 1)
        o.set(best)


class BufferPool:
    """Recycles same-sized scratch buffers between routing requests."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._free: deque[sk.DeviceBuffer] = deque()

    @contextlib.contextmanager
    def borrow(self) -> Iterator[sk.DeviceBuffer]:
        buf = self._free.popleft() if self._free else sk.zeros(CELLS, f32, self.stream)
        try:
            yield buf
        finally:
            self._free.append(buf)


class Route(NamedTuple):
    target: tuple[int, int]
    steps: float
    sweeps: int


class MazeRouter:
    def __init__(self, dev: sk.Device, hedges: np.ndarray) -> None:
        self.stream = dev.new_stream()
        self.pool = BufferPool(self.stream)
        self.prepared = relax.prepare(simt.LaunchConfig1D.for_len(CELLS, block=BLOCK), dev)
        self.hedge = sk.to_device(hedges.astype(np.int32).ravel(), self.stream)

    def distances(self, entrance: tuple[int, int]) -> tuple[np.ndarray, int]:
        start = np.full(CELLS, FAR, np.float32)
        start[entrance[0] * SIDE + entrance[1]] = 0.0
        changed = sk.zeros(1, i32, self.stream)
        with self.pool.borrow() as dist, self.pool.borrow() as nxt:
            dist.copy_from_numpy(start, self.stream)
            sweeps = 0
            while sweeps < 4 * CELLS:
                changed.copy_from_numpy(np.zeros(1, np.int32), self.stream)
                relax.launch(self.prepared, self.stream, dist, self.hedge, nxt, changed, SIDE)
                dist, nxt = nxt, dist
                sweeps += 1
                if changed.to_numpy(self.stream)[0] == 0:
                    break
            result = dist.to_numpy(self.stream).reshape(SIDE, SIDE)
        return result, sweeps

    def route(self, entrance: tuple[int, int], target: tuple[int, int]) -> Route:
        grid, sweeps = self.distances(entrance)
        return Route(target, float(grid[target]), sweeps)


def victorian_maze(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hedges = (rng.random((SIDE, SIDE)) < 0.28).astype(np.int32)
    hedges[0, :] = 0
    hedges[:, SIDE // 2] = 0
    return hedges


def main() -> None:
    router = MazeRouter(sk.Device.default(), victorian_maze(seed=1851))
    for target in ((15, 8), (8, 8), (3, 14)):
        r = router.route((0, 0), target)
        where = "unreachable" if r.steps >= FAR else f"{r.steps:.0f} steps"
        print(f"to {r.target}: {where} (settled after {r.sweeps} sweeps)")


if __name__ == "__main__":
    main()
