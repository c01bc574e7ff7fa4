# fresh-expect: E0505 at line 77
# fresh-known-miss: cli,mypy a context-manager object whose `__exit__` syncs the gather `sample()` started; a tile launch inside the `with` moves the gathered buffer: loans an object holds until `__exit__` are not followed
# fresh-note: DQN-style replay buffer: `sample` starts an async gather of random rows and returns a context manager that syncs the gather in `__exit__`. Bug: inside the `with` block the sampled buffer is handed to `td_loss`, whose tile launch moves it while the pending gather still borrows it (E0505).
"""A replay buffer for DQN-style training: transitions live in a device ring, and each step samples a
minibatch of rows with a gather kernel and computes a squared TD error on it with a tile kernel.
Sampling is asynchronous so the host can draw the next indices while the gather runs; the sampled batch is a
context manager that waits for the gather when the block ends.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

CAPACITY = 256
WIDTH = 8
BATCH = 32
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def gather_rows(storage: Slice[f32], rows: Slice[i32], out: DisjointSlice[f32], width: i32) -> None:
    k = thread.index_1d()
    j = k.get()
    if j < len(out):
        src = rows[j // width] * width + j % width
        if (o := out.get_mut(k)) is not None:
            o.set(storage[src])


@tile.kernel
def td_error(sq: Partition[f32], q: Tensor[f32], target: Tensor[f32]) -> None:
    d = tile.load_like(q, sq) - tile.load_like(target, sq)
    sq.store(d * d)


class SampledBatch:
    def __init__(self, op: sk.DeviceOp, out: sk.DeviceBuffer[f32], stream: sk.Stream) -> None:
        self.op = op
        self.out = out
        self.stream = stream

    def __enter__(self) -> sk.DeviceBuffer[f32]:
        return self.out

    def __exit__(self, *exc: object) -> bool:
        self.op.sync_on(self.stream)
        return False


class ReplayBuffer:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.storage = sk.zeros(CAPACITY * WIDTH, f32, stream)
        self.size = 0
        self.prep = gather_rows.prepare(simt.LaunchConfig1D.for_len(BATCH * WIDTH, block=64), dev)

    def fill(self, transitions: np.ndarray) -> None:
        self.storage.copy_from_numpy(transitions.reshape(-1))
        self.size = len(transitions)

    def sample(self, rng: np.random.Generator) -> SampledBatch:
        rows = sk.to_device(rng.integers(0, self.size, BATCH).astype(np.int32), self.stream)
        out = sk.zeros(BATCH * WIDTH, f32, self.stream)
        op = gather_rows.launch_async(self.prep, self.storage, rows, out, WIDTH)
        return SampledBatch(op, out, self.stream)


def td_loss(batch: sk.DeviceBuffer[f32], targets: sk.DeviceBuffer[f32], stream: sk.Stream) -> float:
    sq = tile.zeros((BATCH * WIDTH,), f32).partition((TILE,))
    sq, _q, _t = td_error(sq, batch, targets).sync_on(stream)
    return float(sq.to_numpy(stream).mean())


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    replay = ReplayBuffer(dev, stream)
    replay.fill(rng.standard_normal((CAPACITY, WIDTH)).astype(np.float32))
    losses = []
    for step in range(3):
        targets = sk.zeros(BATCH * WIDTH, f32, stream)
        with replay.sample(rng) as q_batch:
            losses.append(td_loss(q_batch, targets, stream))
    print("td losses:", [round(v, 3) for v in losses])


if __name__ == "__main__":
    main()
