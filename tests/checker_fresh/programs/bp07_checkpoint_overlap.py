# fresh-expect: E0505 at line 55
# fresh-note: The checkpoint is saved inside `with trainer.weight_norm_in_background()`, whose pending sumsq launch_async still borrows the parameters when the bf16 snapshot tile launch moves them.
"""SGD training with periodic bf16 checkpoints, overlapping a weight-norm reduction with the save."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import bf16, f32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 64
TILE = 64
N = 200


@simt.kernel
@simt.launch_contract(block=BLOCK)
def sgd(grad: Slice[f32], param: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (p := param.get_mut(idx)) is not None:
        p.set(p.get() - lr * grad[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def sumsq(x: Slice[f32], acc: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(x):
        acc.fetch_add(0, x[i] * x[i])


@tile.kernel
def to_bf16(out: Partition[bf16], src: Tensor[f32]) -> None:
    out.store(tile.load_like(src, out).astype(bf16))


@dataclass
class CheckpointWriter:
    stream: sk.Stream
    snapshots: dict[int, np.ndarray] = field(default_factory=dict)

    def save(self, step: int, params: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        """Store a bf16 snapshot of `params`; returns the parameter buffer the launch hands back."""
        snap = tile.zeros((len(params),), bf16).partition((TILE,))
        snap, params = to_bf16(snap, params).sync_on(self.stream)
        self.snapshots[step] = snap.unpartition().to_numpy(self.stream)
        return params


class Trainer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, init: np.ndarray) -> None:
        self.stream = stream
        self.params = sk.to_device(init, stream)
        self.ckpt = CheckpointWriter(stream)
        cfg = simt.LaunchConfig1D.for_len(len(init), block=BLOCK)
        self._sgd = sgd.prepare(cfg, dev)
        self._norm = sumsq.prepare(cfg, dev)
        self.history: list[float] = []

    @contextlib.contextmanager
    def weight_norm_in_background(self) -> Iterator[sk.DeviceBuffer[f32]]:
        acc = sk.zeros(1, f32, self.stream)
        pending = sumsq.launch_async(self._norm, self.params, acc)
        try:
            yield acc
        finally:
            pending.sync_on(self.stream)

    def train_step(self, target: np.ndarray, lr: float) -> None:
        # grad of 0.5 * |w - target|^2, computed on the host for brevity
        grad = sk.to_device(self.params.to_numpy(self.stream) - target, self.stream)
        sgd.launch(self._sgd, self.stream, grad, self.params, lr)

    @staticmethod
    def lr_at(step: int, base: float = 0.3, warmup: int = 2) -> float:
        return base * min(1.0, (step + 1) / warmup)

    def fit(self, target: np.ndarray, steps: int, ckpt_every: int) -> None:
        lr = self.lr_at(0)
        for step in range(steps):
            self.train_step(target, lr)
            with self.weight_norm_in_background() as acc:
                lr = self.lr_at(step + 1)  # host-side work overlapping the reduction
                if step % ckpt_every == ckpt_every - 1:
                    self.params = self.ckpt.save(step, self.params)
            self.history.append(math.sqrt(float(acc.to_numpy(self.stream)[0])))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(7)
    target = rng.standard_normal(N).astype(np.float32)
    trainer = Trainer(dev, stream, np.zeros(N, np.float32))
    trainer.fit(target, steps=6, ckpt_every=3)
    print("weight norms:", [round(h, 3) for h in trainer.history])
    for step, snap in trainer.ckpt.snapshots.items():
        err = float(np.abs(snap - trainer.params.to_numpy(stream)).max())
        print(f"checkpoint @ step {step}: {snap.dtype} x {snap.size}, max |snap - final| = {err:.3f}")


if __name__ == "__main__":
    main()
