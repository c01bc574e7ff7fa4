# fresh-expect: clean
# fresh-note: Prioritized replay: `sample` starts an async gather of rows into a fresh buffer and returns a context manager that waits for the gather in `__enter__`, so the TD-error tile launch inside the `with` block moves a buffer nothing borrows any more.
"""Prioritized experience replay: rows are drawn with probability proportional to their priority, gathered on
the device, and the squared TD error of the batch updates the priorities (Schaul et al., as in many DQN code
bases).
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

CAPACITY = 128
BATCH = 64
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def gather(values: Slice[f32], rows: Slice[i32], out: DisjointSlice[f32]) -> None:
    k = thread.index_1d()
    j = k.get()
    if j < len(rows):
        r = rows[j]
        if (o := out.get_mut(k)) is not None:
            o.set(values[r])


@tile.kernel
def sq_td(err: Partition[f32], q: Tensor[f32], target: Tensor[f32]) -> None:
    d = tile.load_like(q, err) - tile.load_like(target, err)
    err.store(d * d)


class Gathered:
    def __init__(self, op: sk.DeviceOp, out: sk.DeviceBuffer[f32], rows: np.ndarray, stream: sk.Stream) -> None:
        self.op, self.out, self.rows, self.stream = op, out, rows, stream

    def __enter__(self) -> tuple[np.ndarray, sk.DeviceBuffer[f32]]:
        self.op.sync_on(self.stream)
        return self.rows, self.out

    def __exit__(self, *exc: object) -> None:
        return None


class PrioritizedReplay:
    def __init__(self, q_values: np.ndarray, dev: sk.Device, stream: sk.Stream, alpha: float = 0.6) -> None:
        self.stream, self.alpha = stream, alpha
        self.q = sk.to_device(q_values, stream)
        self.priorities = np.ones(CAPACITY, np.float64)
        self.prep = gather.prepare(simt.LaunchConfig1D.for_len(BATCH, block=64), dev)

    def sample(self, rng: np.random.Generator) -> Gathered:
        probs = self.priorities ** self.alpha
        rows = rng.choice(CAPACITY, BATCH, p=probs / probs.sum()).astype(np.int32)
        out = sk.zeros(BATCH, f32, self.stream)
        op = gather.launch_async(self.prep, self.q, sk.to_device(rows, self.stream), out)
        return Gathered(op, out, rows, self.stream)

    def update(self, rows: np.ndarray, td: np.ndarray) -> None:
        self.priorities[rows] = td + 1e-3


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(23)
    replay = PrioritizedReplay(rng.standard_normal(CAPACITY).astype(np.float32), dev, stream)
    targets = sk.zeros(BATCH, f32, stream)
    means = []
    for _ in range(3):
        with replay.sample(rng) as (rows, q_batch):
            err = tile.zeros((BATCH,), f32).partition((TILE,))
            err, _q, targets = sq_td(err, q_batch, targets).sync_on(stream)
            td = err.to_numpy(stream)
        replay.update(rows, td)
        means.append(round(float(td.mean()), 3))
    print("mean squared TD error per batch:", means)


if __name__ == "__main__":
    main()
