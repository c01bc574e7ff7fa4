# fresh-expect: clean
# fresh-note: A double-buffered loader normalizes the next batch with `launch_async` while the model consumes the current one; the loop syncs the previous prefetch right after the swap, so the op writing `loader.back` during `model.step` never borrows the `loader.front` that the tile launch moves.
"""Double-buffered input pipeline feeding a dense layer, host code without torch.

A SIMT kernel normalizes raw features into one of two device buffers while the tile GEMM consumes the
other one.  `DoubleBuffer.swap` turns the buffer prefetched in the previous iteration into the current one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Optional

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

B, F, H = 16, 32, 16
BLOCK = 128
MEAN, INV_STD = 0.5, 2.0


@simt.kernel
@simt.launch_contract(block=BLOCK)
def normalize(raw: Slice[f32], out: DisjointSlice[f32], mean: f32, inv_std: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((raw[i] - mean) * inv_std)


@tile.kernel
def dense(out: Partition[f32], x: Tensor[f32], w: Tensor[f32]) -> None:
    xs = tile.reshape(x.load((0,), (B * F,)), (B, F))
    acc = tile.zeros((B, H), f32)
    out.store(tile.maximum(tile.matmul(xs, w.load((0, 0), (F, H)), acc), 0.0))


@dataclass
class DoubleBuffer:
    stream: sk.Stream
    device: sk.Device
    n: int = B * F
    front: sk.DeviceBuffer = field(init=False)
    back: sk.DeviceBuffer = field(init=False)
    staging: sk.DeviceBuffer = field(init=False)

    def __post_init__(self) -> None:
        self.front = sk.zeros(self.n, f32, self.stream)
        self.back = sk.zeros(self.n, f32, self.stream)
        self.staging = sk.zeros(self.n, f32, self.stream)
        self.prepared = normalize.prepare(simt.LaunchConfig1D.for_len(self.n, block=BLOCK), self.device)

    def prefetch(self, host: Optional[np.ndarray]) -> Optional[sk.DeviceOp]:
        if host is None:
            return None
        self.staging.copy_from_numpy(host.ravel())
        return normalize.launch_async(self.prepared, self.staging, self.back, MEAN, INV_STD)

    def swap(self) -> "DoubleBuffer":
        self.front, self.back = self.back, self.front
        return self


class DenseModel:
    def __init__(self, stream: sk.Stream, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.stream = stream
        self.w = tile.from_numpy((rng.standard_normal((F, H)) / np.sqrt(F)).astype(np.float32)).sync_on(stream)
        self.activations: list[float] = []

    def step(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        out = tile.zeros((B, H), f32).partition((B, H))
        out, x, self.w = dense(out, x, self.w).sync_on(self.stream)
        self.activations.append(float(out.unpartition().to_numpy(self.stream).mean()))
        return x


def batches(count: int, seed: int = 1) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield rng.random((B, F), dtype=np.float32)


def train(loader: DoubleBuffer, model: DenseModel, source: Iterator[np.ndarray]) -> int:
    stream = loader.stream
    pending = loader.prefetch(next(source))
    steps = 0
    while pending is not None:
        loader.swap()  # last iteration's prefetch is the current batch now
        pending.sync_on(stream)
        next_op = loader.prefetch(next(source, None))
        loader.front = model.step(loader.front)
        pending = next_op
        steps += 1
    return steps


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    loader = DoubleBuffer(stream, dev)
    model = DenseModel(stream)
    try:
        steps = train(loader, model, batches(4))
    except StopIteration:
        print("empty data source")
    else:
        print(f"trained {steps} steps, mean activations", [round(a, 4) for a in model.activations])


if __name__ == "__main__":
    main()
