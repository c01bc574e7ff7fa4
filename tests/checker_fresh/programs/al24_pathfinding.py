# fresh-expect: E0499 at line 69
# fresh-known-false-alarm: cli,mypy false E0502 at line 69: the conflict of the next iteration (the output swapped into the input), reported beside the first iteration's E0499
# fresh-note: grid pathfinder for game units that relaxes distances and records the came-from direction per cell, taking its output buffers from a hand-written scratch pool; the pool is keyed only by length, so the distance output and the came-from output are the same buffer and the launch borrows it mutably twice.
from __future__ import annotations
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

W, H = 12, 10
INF = 1.0e9

_POOL: dict[int, sk.DeviceBuffer] = {}


def scratch(n: int, stream: sk.Stream, role: str) -> sk.DeviceBuffer:
    """Reuse device scratch across maps of the same size (role is only for debugging)."""
    if n not in _POOL:
        _POOL[n] = sk.zeros(n, f32, stream)
    return _POOL[n]


@simt.kernel
@simt.launch_contract(block=32)
def relax_dir(cost: Slice[f32], dist: Slice[f32], dist_out: DisjointSlice[f32],
              came_from: DisjointSlice[f32]) -> None:
    w_dist = thread.index_1d()
    w_from = thread.index_1d()
    i = w_dist.get()
    if i < len(dist):
        x = i % W
        best = dist[i]
        how = f32(-1.0)
        if x > 0 and dist[i - 1] + cost[i] < best:
            best = dist[i - 1] + cost[i]
            how = f32(0.0)
        if x < W - 1 and dist[i + 1] + cost[i] < best:
            best = dist[i + 1] + cost[i]
            how = f32(1.0)
        if i >= W and dist[i - W] + cost[i] < best:
            best = dist[i - W] + cost[i]
            how = f32(2.0)
        if i + W < len(dist) and dist[i + W] + cost[i] < best:
            best = dist[i + W] + cost[i]
            how = f32(3.0)
        if (o := dist_out.get_mut(w_dist)) is not None:
            o.set(best)
        if (c := came_from.get_mut(w_from)) is not None:
            if how >= f32(0.0):
                c.set(how)  # keep the previous direction when nothing improved


class Pathfinder:
    def __init__(self, dev: sk.Device, stream: sk.Stream, terrain: np.ndarray) -> None:
        self.stream = stream
        self.n = terrain.size
        self.cost = sk.to_device(terrain.ravel().astype(np.float32), stream)
        self.prepared = relax_dir.prepare(simt.LaunchConfig1D.for_len(self.n, block=32), dev)

    def distances(self, goal: int, sweeps: int) -> tuple[np.ndarray, np.ndarray]:
        start = np.full(self.n, INF, np.float32)
        start[goal] = 0.0
        dist = sk.to_device(start, self.stream)
        out = scratch(self.n, self.stream, "dist_out")
        came = scratch(self.n, self.stream, "came_from")
        for _ in range(sweeps):
            relax_dir.launch(self.prepared, self.stream, self.cost, dist, out, came)
            dist, out = out, dist
        return dist.to_numpy(self.stream), came.to_numpy(self.stream)


def main() -> None:
    terrain = np.ones((H, W), np.float32)
    terrain[2:8, 5] = 25.0
    finder = Pathfinder(sk.Device.cpu(), sk.Device.cpu().new_stream(), terrain)
    goal = 5 * W + 10
    dist, came = finder.distances(goal, sweeps=W + H)
    print("distance from (0, 5):", float(dist[5 * W]), "came-from codes:", np.bincount((came + 1).astype(int)).tolist())


if __name__ == "__main__":
    main()
