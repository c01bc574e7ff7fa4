# fresh-expect: E0505 at line 80
# fresh-known-miss: cli,mypy a parameter annotated with a dataclass whose pending-op field borrows its data field (built by the loader's generator): the loans an object carries from where it was built are not known to a function receiving it
# fresh-note: A prefetching loader yields Batch dataclasses holding the normalized buffer and the pending `launch_async` that fills it. Bug: `train_step` passes `batch.data` to a tile launch (a move) before `batch.wait()` consumes the pending op that still borrows it (E0505).
"""A data loader that normalizes the next batches on the device while the model trains on the current one.
Like a torch DataLoader with `prefetch_factor`, the loader keeps `depth` batches in flight: each one is a
pending `launch_async` of the normalization kernel, and the training step waits for it before using the data.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 128
FEATURES = 1024


@simt.kernel
@simt.launch_contract(block=128)
def normalize(raw: Slice[f32], out: DisjointSlice[f32], mean: f32, inv_std: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((raw[i] - mean) * inv_std)


@tile.kernel
def gated_relu(y: Partition[f32], x: Tensor[f32], w: Tensor[f32]) -> None:
    h = tile.load_like(x, y) * tile.load_like(w, y)
    y.store(tile.maximum(h, 0.0))


@dataclass
class Batch:
    index: int
    data: sk.DeviceBuffer[f32]
    ready: sk.DeviceOp

    def wait(self, stream: sk.Stream) -> None:
        self.ready.sync_on(stream)


class PrefetchLoader:
    def __init__(self, samples: list[np.ndarray], depth: int, dev: sk.Device, stream: sk.Stream) -> None:
        self.samples = samples
        self.depth = depth
        self.stream = stream
        self.prep = normalize.prepare(simt.LaunchConfig1D.for_len(FEATURES, block=128), dev)
        stacked = np.stack(samples)
        self.mean, self.inv_std = float(stacked.mean()), float(1.0 / (stacked.std() + 1e-6))

    def _start(self, i: int) -> Batch:
        raw = sk.to_device(self.samples[i], self.stream)
        out = sk.zeros(FEATURES, f32, self.stream)
        op = normalize.launch_async(self.prep, raw, out, self.mean, self.inv_std)
        return Batch(i, out, op)

    def __iter__(self) -> Iterator[Batch]:
        queue: deque[Batch] = deque(self._start(i) for i in range(min(self.depth, len(self.samples))))
        nxt = len(queue)
        while queue:
            batch = queue.popleft()
            if nxt < len(self.samples):
                queue.append(self._start(nxt))
                nxt += 1
            yield batch


def train_step(batch: Batch, w: sk.DeviceBuffer[f32], stream: sk.Stream) -> tuple[float, sk.DeviceBuffer[f32]]:
    y = tile.zeros((FEATURES,), f32).partition((TILE,))
    fwd = gated_relu(y, batch.data, w)
    batch.wait(stream)
    y, _x, w = fwd.sync_on(stream)
    act = y.to_numpy(stream)
    return float(act.mean()), w


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(11)
    samples = [rng.normal(3.0, 2.0, FEATURES).astype(np.float32) for _ in range(5)]
    w = sk.to_device(np.linspace(-1.0, 1.0, FEATURES, dtype=np.float32), stream)
    losses = []
    for batch in PrefetchLoader(samples, depth=2, dev=dev, stream=stream):
        loss, w = train_step(batch, w, stream)
        losses.append(loss)
    print("mean activations per batch:", [round(v, 3) for v in losses])


if __name__ == "__main__":
    main()
