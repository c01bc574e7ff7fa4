# fresh-expect: E0382 at line 52
# fresh-known-miss: cli,mypy a launch inside a `.then` lambda of a chain `__init__` captures with `graph_on` moves `self.index`, which `update()` reads: a callback's moves in `__init__` do not reach the object's other methods
"""Per-road congestion index for a traffic dashboard, recomputed every minute from a replayed graph.

Each minute brings one vehicle count per road.  The device keeps an exponential moving average
of the counts and publishes `count / (average + 1)` as the congestion index.  The two kernels
are chained once and captured with `graph_on`; every minute the new counts are written into
the graph's input tensor and the graph is replayed.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 64
WARMUP = 10  # minutes before the moving average is trusted


@tile.kernel
def smooth(level: Partition[f32], counts: Tensor[f32], beta: f32) -> None:
    level.store(level.load() * beta + tile.load_like(counts, level) * (1.0 - beta))


@tile.kernel
def congestion(index: Partition[f32], counts: Tensor[f32], level: Tensor[f32]) -> None:
    index.store(tile.load_like(counts, index) / (tile.load_like(level, index) + 1.0))


class TrafficDashboard:
    def __init__(self, roads: int, beta: float, stream: sk.Stream) -> None:
        self.stream = stream
        self.level = tile.zeros((roads,), f32).partition((TILE,)).sync_on(stream)
        self.counts = tile.zeros((roads,), f32).sync_on(stream)
        self.index = tile.zeros((roads,), f32).partition((TILE,)).sync_on(stream)
        chain = smooth(self.level, self.counts, beta).then(
            lambda v: congestion(self.index, v[1], v[0].unpartition())
        )
        self.graph = chain.graph_on(stream)

    def update(self, minute_counts: np.ndarray) -> np.ndarray:
        _, counts, _ = self.graph.value
        counts.buffer.copy_from_numpy(minute_counts.astype(np.float32), self.stream)
        self.graph.replay(self.stream)
        self.stream.synchronize()
        return self.index.to_numpy(self.stream)


def minutes(roads: int, count: int, seed: int = 21) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    base = rng.uniform(5.0, 40.0, roads)
    for minute in range(count):
        rush = 1.0 + 1.5 * np.exp(-((minute - 30) ** 2) / 50.0)
        yield rng.poisson(base * rush).astype(np.float32)


def reference(frames: list[np.ndarray], beta: float) -> list[np.ndarray]:
    level = np.zeros_like(frames[0], dtype=np.float64)
    out = []
    for counts in frames:
        level = beta * level + (1.0 - beta) * counts
        out.append(counts / (level + 1.0))
    return out


def main() -> None:
    roads, beta = 150, 0.8
    dashboard = TrafficDashboard(roads, beta, sk.Device.cpu().new_stream())
    frames = list(minutes(roads, 45))
    worst = (0.0, -1, -1)
    for minute, (counts, want) in enumerate(zip(frames, reference(frames, beta))):
        index = dashboard.update(counts)
        np.testing.assert_allclose(index, want, rtol=1e-4)
        if minute >= WARMUP:
            worst = max(worst, (float(index.max()), minute, int(index.argmax())))
    print(f"highest congestion {worst[0]:.2f} on road {worst[2]} at minute {worst[1]}")


if __name__ == "__main__":
    main()
