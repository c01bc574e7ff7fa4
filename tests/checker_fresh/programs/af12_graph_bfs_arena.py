# fresh-expect: clean
# idiom: one arena buffer carved into named views by a layout loop; offsets include the extra slot (clean)
"""Level-synchronous breadth-first search over a CSR graph.

Each launch expands the current frontier: a thread per vertex walks its edges, claims unvisited
neighbours with a compare-and-swap on the distance array and flags them for the next level.
The distance array carries one extra slot that counts discovered vertices.  All per-search
state lives in one arena allocation, carved into named views.
"""

from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread

BLOCK = 128
LAYOUT = (("dist", 1), ("next", 0))  # region name, extra slots past the n vertices


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(row_ptr) >= len(frontier) + 1", "len(dist) > len(frontier)"))
def expand(row_ptr: Slice[i32], cols: Slice[i32], frontier: Slice[i32], dist: AtomicSlice[i32],
           next_flags: AtomicSlice[i32], level: i32) -> None:
    v = thread.index_1d().get()
    if v < len(frontier) and frontier[v] != 0:
        for e in range(row_ptr[v], row_ptr[v + 1]):
            u = cols[e]
            if dist.compare_exchange(u, i32(-1), level + 1) == -1:
                next_flags.exchange(u, i32(1))
                dist.fetch_add(len(dist) - 1, i32(1))


def carve(arena: sk.DeviceBuffer, n: int) -> dict[str, sk.DeviceBuffer]:
    views: dict[str, sk.DeviceBuffer] = {}
    start = 0
    for name, extra in LAYOUT:
        views[name] = arena[start : start + n + extra]
        start += n + extra
    return views


def to_csr(n: int, edges: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    row_ptr = np.zeros(n + 1, np.int32)
    row_ptr[1:] = np.cumsum([len(a) for a in adj])
    return row_ptr, np.array([u for a in adj for u in a], np.int32)


def bfs(n: int, edges: list[tuple[int, int]], source: int) -> tuple[np.ndarray, int]:
    dev = sk.Device.cpu()
    s = dev.new_stream()
    row_ptr, cols = to_csr(n, edges)
    rp, cl = sk.to_device(row_ptr, s), sk.to_device(cols, s)
    arena = sk.zeros(sum(n + extra for _, extra in LAYOUT), i32, s)
    views = carve(arena, n)
    init = np.full(n + 1, -1, np.int32)
    init[source], init[n] = 0, 1
    views["dist"].copy_from_numpy(init, s)
    frontier = sk.zeros(n, i32, s)
    flags = np.zeros(n, np.int32)
    flags[source] = 1
    prepared = expand.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), dev)
    for level in range(n):
        frontier.copy_from_numpy(flags, s)
        views["next"].copy_from_numpy(np.zeros(n, np.int32), s)
        expand.launch(prepared, s, rp, cl, frontier, views["dist"], views["next"], level)
        flags = views["next"].to_numpy(s)
        if not flags.any():
            break
    dist = views["dist"].to_numpy(s)
    return dist[:n], int(dist[n])


def reference(n: int, edges: list[tuple[int, int]], source: int) -> np.ndarray:
    row_ptr, cols = to_csr(n, edges)
    dist = np.full(n, -1, np.int32)
    dist[source] = 0
    queue = deque([source])
    while queue:
        v = queue.popleft()
        for u in cols[row_ptr[v] : row_ptr[v + 1]]:
            if dist[u] < 0:
                dist[u] = dist[v] + 1
                queue.append(u)
    return dist


def main() -> None:
    rng = np.random.default_rng(2)
    n = 300
    edges = [(int(a), int(b)) for a, b in rng.integers(0, n, size=(420, 2)) if a != b]
    dist, found = bfs(n, edges, source=0)
    np.testing.assert_array_equal(dist, reference(n, edges, source=0))
    assert found == int((dist >= 0).sum())
    print(f"reached {found} of {n} vertices, eccentricity {int(dist.max())}")


if __name__ == "__main__":
    main()
