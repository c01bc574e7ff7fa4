# fresh-expect: E0502 at line 74
# fresh-known-miss: cli,mypy ping-pong `front`/`back` properties over `self._bufs[self._flip]` and `[1 - self._flip]`, the op kept in `self._pending` across calls of `add`: a stored op's loans of another attribute's items are not carried to the next call
# fresh-note: GradAccumulator.add queues each accumulation with launch_async and flips its ping-pong buffers, so the next micro-batch reads `front` while the still-pending previous op writes it.
"""Gradient accumulation over micro-batches for an elementwise linear model, with deferred accumulation ops."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
N = 256


@simt.kernel
@simt.launch_contract(block=BLOCK)
def mse_grad(x: Slice[f32], y: Slice[f32], w: Slice[f32], g: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(x) and (out := g.get_mut(idx)) is not None:
        out.set(2.0 * (w[i] * x[i] - y[i]) * x[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def accumulate(acc_in: Slice[f32], g: Slice[f32], acc_out: DisjointSlice[f32], scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := acc_out.get_mut(idx)) is not None:
        out.set(acc_in[i] + scale * g[i])


class MicroBatchLoader:
    """Yields (x, y) device buffers, one micro-batch at a time."""

    def __init__(self, stream: sk.Stream, seed: int = 0) -> None:
        self.stream = stream
        self.rng = np.random.default_rng(seed)
        self.true_w = np.linspace(0.5, 1.5, N, dtype=np.float32)

    def micro_batches(self, count: int) -> Iterator[tuple[sk.DeviceBuffer[f32], sk.DeviceBuffer[f32]]]:
        for _ in range(count):
            x = self.rng.standard_normal(N).astype(np.float32)
            y = (self.true_w * x).astype(np.float32)
            yield sk.to_device(x, self.stream), sk.to_device(y, self.stream)


class GradAccumulator:
    """Sums scaled micro-batch gradients into a ping-pong pair of buffers."""

    def __init__(self, n: int, steps: int, stream: sk.Stream, dev: sk.Device) -> None:
        self._bufs = [sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)]
        self._flip = 0
        self._scale = 1.0 / steps
        self._pending: list[sk.DeviceOp] = []
        self._launch = accumulate.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), dev)
        self.stream = stream

    @property
    def front(self) -> sk.DeviceBuffer[f32]:
        return self._bufs[self._flip]

    @property
    def back(self) -> sk.DeviceBuffer[f32]:
        return self._bufs[1 - self._flip]

    def add(self, g: sk.DeviceBuffer[f32]) -> None:
        op = accumulate.launch_async(self._launch, self.front, g, self.back, self._scale)
        self._pending.append(op)
        self._flip = 1 - self._flip

    def flush(self) -> sk.DeviceBuffer[f32]:
        while self._pending:
            self._pending.pop(0).sync_on(self.stream)
        return self.front

    def reset(self) -> None:
        for buf in self._bufs:
            buf.copy_from_numpy(np.zeros(len(buf), np.float32), self.stream)


def train(steps: int = 4, accum: int = 3) -> np.ndarray:
    dev = sk.Device.default()
    stream = dev.new_stream()
    loader = MicroBatchLoader(stream)
    w_host = np.zeros(N, np.float32)
    grad_launch = mse_grad.prepare(simt.LaunchConfig1D.for_len(N, block=BLOCK), dev)
    acc = GradAccumulator(N, accum, stream, dev)
    for step in range(steps):
        w = sk.to_device(w_host, stream)
        for x, y in loader.micro_batches(accum):
            g = sk.zeros(N, f32, stream)
            mse_grad.launch(grad_launch, stream, x, y, w, g)
            acc.add(g)
        else:
            total = acc.flush().to_numpy(stream)
        w_host = (w_host - 0.3 * total).astype(np.float32)
        acc.reset()
        err = float(np.abs(w_host - loader.true_w).mean())
        print(f"step {step}: mean |w - w*| = {err:.4f}")
    return w_host


def main() -> None:
    w = train()
    print("final w[:4] =", np.round(w[:4], 3))


if __name__ == "__main__":
    main()
