# fresh-expect: clean
# fresh-note: A prefetching loader keeps a deque of pending normalization launch_async ops; the iterator waits for each batch's op before yielding it, and the training step then moves the batch into a tile launch.
"""Device-side data augmentation with a prefetch queue: random scaling and a shift, computed for the next
batches while the current one trains (torch DataLoader's `prefetch_factor`, with the transform on the GPU).
"""

from __future__ import annotations

from collections import deque
from typing import Iterator, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 768
TILE = 128


@simt.kernel
@simt.launch_contract(block=64)
def augment(raw: Slice[f32], out: DisjointSlice[f32], gain: f32, shift: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] * gain + shift)


@tile.kernel
def sq_err(loss: Partition[f32], x: Tensor[f32], w: Tensor[f32]) -> None:
    d = tile.load_like(x, loss) - tile.load_like(w, loss)
    loss.store(d * d)


class InFlight(NamedTuple):
    step: int
    out: sk.DeviceBuffer[f32]
    op: sk.DeviceOp


class AugmentingLoader:
    def __init__(self, data: list[np.ndarray], dev: sk.Device, stream: sk.Stream, depth: int = 3) -> None:
        self.data, self.stream, self.depth = data, stream, depth
        self.prep = augment.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.rng = np.random.default_rng(16)

    def _launch(self, step: int) -> InFlight:
        raw = sk.to_device(self.data[step], self.stream)
        out = sk.zeros(N, f32, self.stream)
        gain, shift = self.rng.uniform(0.9, 1.1), self.rng.uniform(-0.1, 0.1)
        return InFlight(step, out, augment.launch_async(self.prep, raw, out, gain, shift))

    def __iter__(self) -> Iterator[tuple[int, sk.DeviceBuffer[f32]]]:
        queue: deque[InFlight] = deque()
        for step in range(len(self.data)):
            queue.append(self._launch(step))
            if len(queue) < self.depth:
                continue
            head = queue.popleft()
            head.op.sync_on(self.stream)
            yield head.step, head.out
        while queue:
            head = queue.popleft()
            head.op.sync_on(self.stream)
            yield head.step, head.out


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1)
    data = [rng.standard_normal(N).astype(np.float32) for _ in range(6)]
    w = sk.to_device(np.zeros(N, np.float32), stream)
    losses = {}
    for step, batch in AugmentingLoader(data, dev, stream):
        loss = tile.zeros((N,), f32).partition((TILE,))
        loss, batch, w = sq_err(loss, batch, w).sync_on(stream)
        losses[step] = float(loss.to_numpy(stream).mean())
    print("per-step loss:", {k: round(v, 3) for k, v in sorted(losses.items())})


if __name__ == "__main__":
    main()
