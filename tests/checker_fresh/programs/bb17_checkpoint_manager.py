# fresh-expect: clean
# fresh-note: A checkpoint manager copies parameters into fresh device snapshots with a copy kernel, keeps the best k by validation loss in a heap, and restores the best one into the model at the end.
"""Keep-best-k checkpointing on the device (like Lightning's ModelCheckpoint(save_top_k=k), without the disk).

Saving copies every parameter into a new snapshot buffer; restoring copies a snapshot back into fresh
parameter buffers, so snapshots stay valid after a restore and can be restored again.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def copy_into(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


@simt.kernel
@simt.launch_contract(block=256)
def noisy_step(p: Slice[f32], noise: Slice[f32], out: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(p[i] * (1.0 - lr) + noise[i])


@dataclass(order=True)
class Checkpoint:
    neg_loss: float
    seq: int
    step: int = field(compare=False)
    tensors: dict[str, sk.DeviceBuffer[f32]] = field(compare=False, default_factory=dict)


class CheckpointManager:
    def __init__(self, dev: sk.Device, stream: sk.Stream, keep: int = 2) -> None:
        self.dev, self.stream, self.keep = dev, stream, keep
        self.heap: list[Checkpoint] = []
        self.seq = itertools.count()

    def _clone(self, buf: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        out = sk.zeros(len(buf), f32, self.stream)
        prep = copy_into.prepare(simt.LaunchConfig1D.for_len(len(buf), block=256), self.dev)
        copy_into.launch(prep, self.stream, buf, out)
        return out

    def save(self, step: int, loss: float, params: dict[str, sk.DeviceBuffer[f32]]) -> None:
        ckpt = Checkpoint(-loss, next(self.seq), step, {k: self._clone(v) for k, v in params.items()})
        heapq.heappush(self.heap, ckpt)
        if len(self.heap) > self.keep:
            heapq.heappop(self.heap)

    def restore_best(self) -> tuple[int, dict[str, sk.DeviceBuffer[f32]]]:
        best = max(self.heap)
        return best.step, {k: self._clone(v) for k, v in best.tensors.items()}


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(17)
    params = {"w1": sk.to_device(rng.standard_normal(1024).astype(np.float32), stream),
              "w2": sk.to_device(rng.standard_normal(256).astype(np.float32), stream)}
    manager = CheckpointManager(dev, stream, keep=2)
    for step in range(6):
        for name, p in list(params.items()):
            noise = sk.to_device((0.05 * rng.standard_normal(len(p))).astype(np.float32), stream)
            out = sk.zeros(len(p), f32, stream)
            noisy_step.launch(noisy_step.prepare(simt.LaunchConfig1D.for_len(len(p), block=256), dev), stream,
                              p, noise, out, 0.3)
            params[name] = out
        val = sum(float(np.mean(p.to_numpy(stream) ** 2)) for p in params.values())
        manager.save(step, val, params)
    best_step, params = manager.restore_best()
    print("restored step", best_step, "kept", sorted(c.step for c in manager.heap),
          "loss", round(sum(float(np.mean(p.to_numpy(stream) ** 2)) for p in params.values()), 4))


if __name__ == "__main__":
    main()
