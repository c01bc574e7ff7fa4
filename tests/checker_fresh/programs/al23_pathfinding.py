# fresh-expect: clean
# fresh-note: game-AI flow field on a grid map: Bellman-Ford relaxation sweeps ping-pong two distance buffers and count improvements with an AtomicSlice flag until nothing changes, then units follow the field downhill on the host.
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

W, H = 16, 12
INF = 1.0e9


@simt.kernel
@simt.launch_contract(block=(16, 2))
def relax(cost: Slice[f32], dist: Slice[f32], dist_out: DisjointSlice[f32], changed: AtomicSlice[i32]) -> None:
    idx = thread.index_2d(W)
    if idx is not None:
        i = idx.get()
        if i < len(dist):
            x = i % W
            best = dist[i]
            step = cost[i]
            if x > 0:
                best = min(best, dist[i - 1] + step)
            if x < W - 1:
                best = min(best, dist[i + 1] + step)
            if i >= W:
                best = min(best, dist[i - W] + step)
            if i + W < len(dist):
                best = min(best, dist[i + W] + step)
            if best < dist[i]:
                changed.fetch_add(0, i32(1))
            if (o := dist_out.get_mut(idx)) is not None:
                o.set(best)


@dataclass
class FlowField:
    dev: sk.Device
    stream: sk.Stream
    terrain: np.ndarray
    sweeps: int = 0
    history: list[int] = field(default_factory=list)

    def solve(self, goal: tuple[int, int]) -> np.ndarray:
        start = np.full(W * H, INF, np.float32)
        start[goal[1] * W + goal[0]] = 0.0
        cost = sk.to_device(self.terrain.ravel().astype(np.float32), self.stream)
        cur, nxt = sk.to_device(start, self.stream), sk.to_device(start, self.stream)
        flag = sk.zeros(1, i32, self.stream)
        prepared = relax.prepare(simt.LaunchConfig2D.for_shape(H, W, block=(16, 2)), self.dev)
        while True:
            flag.copy_from_numpy(np.zeros(1, np.int32))
            relax.launch(prepared, self.stream, cost, cur, nxt, flag)
            cur, nxt = nxt, cur
            self.sweeps += 1
            improved = int(flag.to_numpy(self.stream)[0])
            self.history.append(improved)
            if improved == 0:
                return cur.to_numpy(self.stream).reshape(H, W)


def walk(field_: np.ndarray, unit: tuple[int, int], limit: int = 100) -> list[tuple[int, int]]:
    path = [unit]
    x, y = unit
    for _ in range(limit):
        options = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= x + dx < W and 0 <= y + dy < H]
        nx, ny = min(options, key=lambda p: field_[p[1], p[0]])
        if field_[ny, nx] >= field_[y, x]:
            break
        x, y = nx, ny
        path.append((x, y))
    return path


def main() -> None:
    rng = np.random.default_rng(4)
    terrain = np.ones((H, W), np.float32)
    terrain[3:9, 7] = 50.0  # a wall with gaps at the ends
    terrain += rng.random((H, W)).astype(np.float32) * 0.1
    ff = FlowField(sk.Device.cpu(), sk.Device.cpu().new_stream(), terrain)
    field_ = ff.solve(goal=(14, 6))
    path = walk(field_, (1, 6))
    assert path[-1] == (14, 6), path[-1]
    print(f"{ff.sweeps} sweeps; path of {len(path)} cells avoids the wall: {all(terrain[y, x] < 50 for x, y in path)}")


if __name__ == "__main__":
    main()
