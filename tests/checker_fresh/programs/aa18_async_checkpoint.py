# fresh-expect: E0502 at line 56
# fresh-known-false-alarm: cli,mypy E0499 at line 60: the second checkpoint_async while the first copy op (writing snapshot) is pending is a true conflict (reported inside checkpoint_async, labelled with the call at line 77), but the runtime never gets there: trainer.step() at line 75 raises first (inside step, line 56)
"""SGD on a toy quadratic with asynchronous weight checkpoints.

The trainer ping-pongs its weights between two device buffers. Every other step it starts an asynchronous copy of
the weights into a snapshot buffer (so saving overlaps the next step) and collects the snapshot every fourth step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DIM = 128
LR = 0.1


@simt.kernel
@simt.launch_contract(block=64)
def sgd(w: Slice[f32], target: Slice[f32], w_next: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := w_next.get_mut(idx)) is not None:
        o.set(w[i] - lr * f32(2.0) * (w[i] - target[i]))


@simt.kernel
@simt.launch_contract(block=64)
def copy(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


class Trainer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, target: np.ndarray) -> None:
        self.stream = stream
        cfg = simt.LaunchConfig1D.for_len(DIM, block=64)
        self.sgd_prep = sgd.prepare(cfg, dev)
        self.copy_prep = copy.prepare(cfg, dev)
        self.target = sk.to_device(target, stream)
        self.w = sk.zeros(DIM, f32, stream)
        self.w_next = sk.zeros(DIM, f32, stream)
        self.snapshot = sk.zeros(DIM, f32, stream)
        self.pending: Any = None
        self.saved: list[float] = []

    def step(self) -> None:
        sgd.launch(self.sgd_prep, self.stream, self.w, self.target, self.w_next, LR)
        self.w, self.w_next = self.w_next, self.w

    def checkpoint_async(self) -> None:
        self.pending = copy.launch_async(self.copy_prep, self.w, self.snapshot)

    def finish_checkpoint(self) -> None:
        if self.pending is None:
            return
        self.pending.sync_on(self.stream)
        self.pending = None
        self.saved.append(float(np.abs(self.snapshot.to_numpy(self.stream)).max()))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    trainer = Trainer(dev, stream, np.linspace(0, 1, DIM, dtype=np.float32))
    for step in range(8):
        trainer.step()
        if step % 2 == 1:
            trainer.checkpoint_async()
        if step % 4 == 3:
            trainer.finish_checkpoint()
    trainer.finish_checkpoint()
    print("checkpoint maxima:", [round(v, 4) for v in trainer.saved])


if __name__ == "__main__":
    main()
