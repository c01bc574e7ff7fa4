# fresh-expect: W0003 at line 52
# fresh-note: Fused clip-and-SGD step queued per parameter with `launch_async`, some parameters frozen. Bug: `step` queues the update through `_queue` before checking `requires_grad` and `continue`s for frozen parameters, dropping the pending op unrun (W0003 at the launch_async in `_queue`).
"""Elementwise gradient clipping fused into an SGD step, with some parameters frozen for fine-tuning.

Like `torch.nn.utils.clip_grad_value_` followed by `optimizer.step()`, but in one kernel per parameter.  The
updates are queued with `launch_async` and each one is waited on before its parameter's buffers are swapped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def clip_sgd(param: Slice[f32], grad: Slice[f32], out: DisjointSlice[f32], lr: f32, clip: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        g = min(max(grad[i], -clip), clip)
        o.set(param[i] - lr * g)


@dataclass
class Param:
    data: sk.DeviceBuffer[f32]
    spare: sk.DeviceBuffer[f32]
    requires_grad: bool = True

    def swap(self) -> None:
        self.data, self.spare = self.spare, self.data


class ClippedSGD:
    def __init__(self, params: dict[str, Param], dev: sk.Device, stream: sk.Stream, lr: float, clip: float) -> None:
        self.params = params
        self.dev = dev
        self.stream = stream
        self.lr = lr
        self.clip = clip
        self.updates = 0

    def _queue(self, p: Param, grad: sk.DeviceBuffer[f32]) -> sk.DeviceOp:
        prep = clip_sgd.prepare(simt.LaunchConfig1D.for_len(len(grad), block=128), self.dev)
        return clip_sgd.launch_async(prep, p.data, grad, p.spare, self.lr, self.clip)

    def step(self, grads: dict[str, sk.DeviceBuffer[f32]]) -> None:
        for name, grad in grads.items():
            p = self.params[name]
            pending = self._queue(p, grad)
            if not p.requires_grad:
                continue
            pending.sync_on(self.stream)
            p.swap()
            self.updates += 1


def make_param(rng: np.random.Generator, n: int, stream: sk.Stream, trainable: bool = True) -> Param:
    data = sk.to_device(rng.standard_normal(n).astype(np.float32), stream)
    return Param(data, sk.zeros(n, f32, stream), requires_grad=trainable)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    params = {
        "embed.weight": make_param(rng, 2048, stream, trainable=False),
        "block.weight": make_param(rng, 1024, stream),
        "head.weight": make_param(rng, 256, stream),
    }
    opt = ClippedSGD(params, dev, stream, lr=0.1, clip=0.5)
    for _ in range(3):
        grads = {k: sk.to_device(3.0 * p.data.to_numpy(stream), stream) for k, p in params.items()}
        opt.step(grads)
    sizes = {k: round(float(np.abs(p.data.to_numpy(stream)).mean()), 4) for k, p in params.items()}
    print("updates:", opt.updates, "mean |w|:", sizes)


if __name__ == "__main__":
    main()
