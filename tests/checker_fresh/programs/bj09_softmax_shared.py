# fresh-expect: E0133 at line 44
# fresh-known-false-alarm: cli,mypy false E0133 at 49 and false E0133 at 52: the helper's later accesses of the shared array, each outside an unsafe block as rustc reports every one, which the runtime never reaches once line 44 raises
# fresh-note: Row softmax with block reductions in shared memory followed by a cross-entropy gradient kernel; `block_sum` indexes the shared scratch array without its own `with simt.unsafe():` (it relies on the caller's block, which a device helper does not inherit).
"""Softmax cross-entropy for a classifier head, SIMT track, host code without torch.
One thread block per row: every thread holds one logit, the row max and the row sum are block-wide
tree reductions through a shared scratch array, and a second kernel turns the probabilities into the
gradient of the mean cross-entropy with respect to the logits.
"""

from __future__ import annotations

import functools
import math
from typing import Callable, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import DisjointSlice, Slice, thread

CLASSES = 64  # one block per row, one thread per class


@simt.device
def block_max(scratch, t: int, v: f32) -> f32:
    with simt.unsafe():  # t < CLASSES = block size, and every stride stays inside the block
        scratch[t] = v
        thread.sync_threads()
        stride = CLASSES // 2
        while stride > 0:
            if t < stride:
                scratch[t] = max(scratch[t], scratch[t + stride])
            thread.sync_threads()
            stride //= 2
        m = scratch[0]
    thread.sync_threads()
    return m


@simt.device
def block_sum(scratch, t: int, v: f32) -> f32:
    scratch[t] = v
    thread.sync_threads()
    stride = CLASSES // 2
    while stride > 0:
        if t < stride:
            scratch[t] = scratch[t] + scratch[t + stride]
        thread.sync_threads()
        stride //= 2
    total = scratch[0]
    thread.sync_threads()
    return total


@simt.kernel
@simt.launch_contract(block=CLASSES)
def row_softmax(logits: Slice[f32], probs: DisjointSlice[f32], inv_temp: f32) -> None:
    t = thread.thread_idx_x()
    idx = thread.index_1d()
    x = logits[idx.get()] * inv_temp
    with simt.unsafe():
        scratch = simt.shared_array(f32, CLASSES)
        m = block_max(scratch, t, x)
        e = math.exp(x - m)
        s = block_sum(scratch, t, e)
    if (p := probs.get_mut(idx)) is not None:
        p.set(e / s)


@simt.kernel
@simt.launch_contract(block=CLASSES)
def xent_grad(probs: Slice[f32], labels: Slice[i32], grad: DisjointSlice[f32], batch: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    row = i // CLASSES
    col = i % CLASSES
    target = f32(1.0) if labels[row] == col else f32(0.0)
    if (g := grad.get_mut(idx)) is not None:
        g.set((probs[i] - target) / f32(batch))


class HeadOutput(NamedTuple):
    loss: float
    probs: np.ndarray
    grad: np.ndarray


def launcher(kernel, rows: int, device: sk.Device) -> Callable[..., None]:
    prepared = kernel.prepare(simt.LaunchConfig1D(grid=rows, block=CLASSES), device)
    return functools.partial(kernel.launch, prepared)


class SoftmaxCrossEntropy:
    def __init__(self, batch: int, device: sk.Device, stream: sk.Stream, temperature: float = 1.0) -> None:
        self.batch = batch
        self.stream = stream
        self.inv_temp = 1.0 / temperature
        self.softmax = launcher(row_softmax, batch, device)
        self.backward = launcher(xent_grad, batch, device)
        self.probs = sk.zeros(batch * CLASSES, f32, stream)
        self.grad = sk.zeros(batch * CLASSES, f32, stream)

    def __call__(self, logits: np.ndarray, labels: np.ndarray) -> HeadOutput:
        s = self.stream
        x = sk.to_device(logits.astype(np.float32).ravel(), s)
        y = sk.to_device(labels.astype(np.int32), s)
        self.softmax(s, x, self.probs, self.inv_temp)
        self.backward(s, self.probs, y, self.grad, self.batch)
        p = self.probs.to_numpy(s).reshape(self.batch, CLASSES)
        loss = float(-np.log(p[np.arange(self.batch), labels] + 1e-12).mean())
        return HeadOutput(loss, p, self.grad.to_numpy(s).reshape(self.batch, CLASSES))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(11)
    batch = 4
    head = SoftmaxCrossEntropy(batch, dev, stream, temperature=2.0)
    logits = rng.standard_normal((batch, CLASSES)).astype(np.float32)
    labels = rng.integers(0, CLASSES, batch)
    for it in range(3):
        out = head(logits, labels)
        logits = logits - 8.0 * out.grad  # plain gradient descent on the logits themselves
        print(f"iter {it}: loss {out.loss:.4f}, row sums {np.round(out.probs.sum(axis=1), 5)}")


if __name__ == "__main__":
    main()
