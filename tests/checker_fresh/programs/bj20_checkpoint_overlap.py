# fresh-expect: clean
# fresh-note: A trainer takes the bf16 checkpoint snapshot (a tile launch that moves and hands back `self.w`) before it starts the asynchronous SGD update, and only host-side bookkeeping runs inside the `try` whose `finally` syncs the pending op.
"""Linear regression trained with SGD, with bf16 checkpoints and restore-on-divergence, no torch.

The update runs as an asynchronous SIMT launch into a second weight buffer (ping-pong); every few steps
the weights are snapshotted to bf16 with a tile kernel and kept on the host.  If the loss blows up the
trainer restores the best snapshot and lowers the learning rate.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import bf16, f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

D = 128
T = 64
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def sgd_step(w: Slice[f32], g: Slice[f32], w_out: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := w_out.get_mut(idx)) is not None:
        o.set(w[i] - lr * g[i])


@tile.kernel
def snapshot(out: Partition[bf16], src: Tensor[f32]) -> None:
    out.store(tile.load_like(src, out).astype(bf16))


class Checkpoint(NamedTuple):
    step: int
    loss: float
    weights: np.ndarray  # bf16 values held as float32


class Trainer:
    def __init__(self, x: np.ndarray, y: np.ndarray, device: sk.Device, stream: sk.Stream,
                 lr: float = 0.1, ckpt_every: int = 2) -> None:
        self.x, self.y = x, y
        self.stream = stream
        self.lr = lr
        self.ckpt_every = ckpt_every
        self.w = sk.zeros(D, f32, stream)
        self.w_next = sk.zeros(D, f32, stream)
        self.grad = sk.zeros(D, f32, stream)
        self.prepared = sgd_step.prepare(simt.LaunchConfig1D.for_len(D, block=BLOCK), device)
        self.checkpoints: list[Checkpoint] = []
        self.losses: list[float] = []
        self.grad_norms: list[float] = []

    def loss_and_grad(self) -> tuple[float, np.ndarray]:
        w = self.w.to_numpy(self.stream)
        err = self.x @ w - self.y
        return float((err**2).mean()), (2.0 * self.x.T @ err / len(err)).astype(np.float32)

    def save(self, step: int, loss: float) -> Checkpoint:
        snap = tile.zeros((D,), bf16).partition((T,))
        snap, self.w = snapshot(snap, self.w).sync_on(self.stream)
        return Checkpoint(step, loss, snap.unpartition().to_numpy(self.stream))

    def best(self) -> Optional[Checkpoint]:
        return min(self.checkpoints, key=lambda c: c.loss, default=None)

    def restore(self, ckpt: Checkpoint) -> "Trainer":
        self.w.copy_from_numpy(ckpt.weights.astype(np.float32))
        self.lr *= 0.5
        return self

    def step(self, step: int) -> float:
        loss, g = self.loss_and_grad()
        self.losses.append(loss)
        self.grad.copy_from_numpy(g)
        if step % self.ckpt_every == 0:  # snapshot the pre-update weights before the update borrows them
            self.checkpoints.append(self.save(step, loss))
        pending = sgd_step.launch_async(self.prepared, self.w, self.grad, self.w_next, self.lr)
        try:
            self.grad_norms.append(float(np.linalg.norm(g)))
        finally:
            pending.sync_on(self.stream)
        self.w, self.w_next = self.w_next, self.w
        return loss


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(12)
    x = rng.standard_normal((64, D)).astype(np.float32) / np.sqrt(D)
    y = (x @ rng.standard_normal(D).astype(np.float32)).astype(np.float32)
    trainer = Trainer(x, y, dev, stream, lr=0.8)
    for step in range(6):
        loss = trainer.step(step)
        if len(trainer.losses) > 1 and loss > 2.0 * trainer.losses[-2] and (best := trainer.best()):
            print(f"step {step}: loss {loss:.4f} diverged, restoring step {best.step}")
            trainer.restore(best)
        else:
            print(f"step {step}: loss {loss:.4f}")
    print("checkpoints at steps", [c.step for c in trainer.checkpoints])


if __name__ == "__main__":
    main()
