# fresh-expect: E0505 at line 59
# fresh-known-miss: cli,mypy one popitem() of a dict attribute of pending ops forgets every op stored there (a taking method forgets a container's stored ops), so the op still pending after drain() is not followed
# fresh-note: A Monte-Carlo slab-penetration tally launches one asynchronous SIMT batch per seed into per-seed tallies, but the bank's drain step syncs only one pending op (an `if` where a `while` was meant), so merging moves a tally a still-pending batch borrows into a tile launch.
"""Depth-of-first-collision histogram for particles entering a slab, batched by RNG seed."""
import math
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import AtomicSlice, thread
from safekernels.tile import Partition, Tensor

HISTORIES = 400
BINS = 32
BIN_WIDTH = 0.25


@simt.kernel
@simt.launch_contract(block=128)
def first_collision(tally: AtomicSlice[i32], seed: u32, mu: f32) -> None:
    i = thread.index_1d().get()
    if i < HISTORIES:
        h = u32(i) * u32(747796405) + seed * u32(2891336453)
        h = (h ^ (h >> u32(13))) * u32(1274126177)
        h = h ^ (h >> u32(16))
        xi = (f32(h & u32(0xFFFFFF)) + 0.5) / f32(16777216.0)
        depth = -math.log(xi) / mu
        b = i32(depth / BIN_WIDTH)
        if b < BINS:
            tally.fetch_add(b, i32(1))


@tile.kernel
def accumulate(total: Partition[i32], part: Tensor[i32]) -> None:
    total.store(total.load() + tile.load_like(part, total))


class TallyBank:
    def __init__(self, device: sk.Device, stream: sk.Stream, mu: float) -> None:
        self.stream = stream
        self.mu = mu
        self.plan = first_collision.prepare(simt.LaunchConfig1D.for_len(HISTORIES, block=128), device)
        self.tallies: dict[int, sk.DeviceBuffer] = {}
        self.pending: dict = {}

    def launch(self, seed: int) -> None:
        self.tallies[seed] = sk.zeros(BINS, i32, self.stream)
        self.pending[seed] = first_collision.launch_async(self.plan, self.tallies[seed], seed, self.mu)

    def drain(self) -> None:
        if self.pending:
            _, op = self.pending.popitem()
            op.sync_on(self.stream)

    def merged(self) -> np.ndarray:
        total = tile.zeros((BINS,), i32).partition((16,))
        for counts in self.tallies.values():
            total, _ = accumulate(total, counts).sync_on(self.stream)
        return total.unpartition().to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    bank = TallyBank(dev, stream, mu=0.8)
    for seed in (101, 202, 303):
        bank.launch(seed)
    bank.drain()
    hist = bank.merged()
    edges = np.arange(BINS + 1) * BIN_WIDTH
    expected = 3 * HISTORIES * (np.exp(-0.8 * edges[:-1]) - np.exp(-0.8 * edges[1:]))
    assert abs(hist[:4].sum() - expected[:4].sum()) < 0.1 * expected[:4].sum(), (hist[:4], expected[:4])
    print("collisions per bin:", hist[:8].tolist(), "escaped:", 3 * HISTORIES - int(hist.sum()))


if __name__ == "__main__":
    main()
