# fresh-expect: clean
# fresh-note: A Lorenz-96 ensemble forecast submits asynchronous Euler steps through a batching queue, and the diagnostics flush the queue before moving each member's state into a tile reduction.
"""Lorenz-96 ensemble (data-assimilation toy model) with batched asynchronous submission."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

K = 128
TILE = 32
FORCING = 8.0


@simt.kernel
@simt.launch_contract(block=64)
def l96_euler(x: Slice[f32], out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(x)
    if (o := out.get_mut(idx)) is not None:
        tend = (x[(i + 1) % n] - x[(i + n - 2) % n]) * x[(i + n - 1) % n] - x[i] + FORCING
        o.set(x[i] + dt * tend)


@tile.kernel
def block_mean(out: Partition[f32], x: Tensor[f32]) -> None:
    chunk = x.load((tile.bid(0),), (TILE,))
    out.store(tile.reshape(tile.sum(chunk) / TILE, (1,)))


class Batcher:
    def __init__(self, stream: sk.Stream, size: int) -> None:
        self.stream, self.size, self.queue = stream, size, []

    def submit(self, op) -> None:
        self.queue.append(op)
        if len(self.queue) == self.size:
            self.flush()

    def flush(self) -> None:
        while self.queue:
            self.queue.pop(0).sync_on(self.stream)


class Ensemble:
    def __init__(self, x0: np.ndarray, members: int, device: sk.Device, stream: sk.Stream) -> None:
        rng = np.random.default_rng(1)
        self.stream = stream
        self.states = [sk.to_device((x0 + 0.01 * rng.normal(size=K)).astype(np.float32), stream) for _ in range(members)]
        self.scratch = [sk.zeros(K, f32, stream) for _ in range(members)]
        self.plan = l96_euler.prepare(simt.LaunchConfig1D.for_len(K, block=64), device)
        self.batcher = Batcher(stream, size=3)

    def step(self, dt: float) -> None:
        for m in range(len(self.states)):
            self.batcher.submit(l96_euler.launch_async(self.plan, self.states[m], self.scratch[m], dt))
            self.states[m], self.scratch[m] = self.scratch[m], self.states[m]

    def block_means(self) -> np.ndarray:
        self.batcher.flush()
        rows = []
        for m, state in enumerate(self.states):
            parts = tile.zeros((K // TILE,), f32).partition((1,))
            parts, self.states[m] = block_mean(parts, state).sync_on(self.stream)
            rows.append(parts.unpartition().to_numpy(self.stream))
        return np.stack(rows)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    x0 = FORCING * np.ones(K)
    x0[K // 2] += 0.5
    ens = Ensemble(x0, members=4, device=dev, stream=stream)
    spreads = []
    for _ in range(5):
        for _ in range(4):
            ens.step(0.01)
        spreads.append(float(ens.block_means().std(axis=0).mean()))
    assert np.all(np.isfinite(spreads))
    print("ensemble spread of block means:", [f"{s:.2e}" for s in spreads])


if __name__ == "__main__":
    main()
