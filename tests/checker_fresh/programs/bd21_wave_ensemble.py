# fresh-expect: E0505 at line 64
# fresh-known-miss: cli,mypy reported as false E0502 at 58: a queue flushing every two ops leaves ops pending; the loop over members meets a member's earlier op still pending at its next step (counts are not followed), before the energy diagnostic's move
# fresh-note: An ensemble of 1-D wave-equation members submits asynchronous leapfrog steps through a queue that flushes every two ops, and the energy diagnostic moves each member's field into a tile reduction while the last, unflushed step still borrows it.
"""Leapfrog wave equation for an ensemble of perturbed initial conditions, batched submission."""
import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 192
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def leapfrog(prev: Slice[f32], cur: Slice[f32], nxt: DisjointSlice[f32], c2: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(cur)
    if (o := nxt.get_mut(idx)) is not None:
        if i == 0 or i == n - 1:
            o.set(0.0)
        else:
            o.set(2.0 * cur[i] - prev[i] + c2 * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]))


@tile.kernel
def sum_squares(out: Partition[f32], u: Tensor[f32]) -> None:
    chunk = u.load((tile.bid(0),), (TILE,))
    out.store(tile.reshape(tile.sum(chunk * chunk), (1,)))


class SubmitQueue:
    def __init__(self, stream: sk.Stream, batch: int) -> None:
        self.stream, self.batch = stream, batch
        self.ops: list = []

    def submit(self, op) -> None:
        self.ops.append(op)
        if len(self.ops) >= self.batch:
            self.flush()

    def flush(self) -> None:
        if self.ops:
            sk.zip(*self.ops).sync_on(self.stream)
            self.ops = []


class Member:
    def __init__(self, u0: np.ndarray, stream: sk.Stream) -> None:
        self.prev = sk.to_device(u0.astype(np.float32), stream)
        self.cur = sk.to_device(u0.astype(np.float32), stream)
        self.nxt = sk.zeros(N, f32, stream)

    def step(self, plan, c2: float):
        op = leapfrog.launch_async(plan, self.prev, self.cur, self.nxt, c2)
        self.prev, self.cur, self.nxt = self.cur, self.nxt, self.prev
        return op

    def energy(self, stream: sk.Stream) -> float:
        partial = tile.zeros((N // TILE,), f32).partition((1,))
        partial, self.cur = sum_squares(partial, self.cur).sync_on(stream)
        return float(partial.unpartition().to_numpy(stream).sum())


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    x = np.linspace(0.0, 1.0, N)
    rng = np.random.default_rng(10)
    members = [Member(np.exp(-((x - 0.5 + 0.02 * rng.normal()) ** 2) / 0.002), stream) for _ in range(5)]
    plan = leapfrog.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    queue = SubmitQueue(stream, batch=2)
    for _ in range(3):
        for member in members:
            queue.submit(member.step(plan, 0.25))
    energies = [m.energy(stream) for m in members]
    spread = float(np.std(energies) / np.mean(energies))
    assert spread < 0.5, energies
    print("ensemble energies:", [round(e, 3) for e in energies])


if __name__ == "__main__":
    main()
