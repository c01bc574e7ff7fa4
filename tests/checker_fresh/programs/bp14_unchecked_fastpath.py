# fresh-expect: clean
# fresh-note: The `with simt.unsafe():` is written in MomentumSGD.step itself, next to the timing context manager, so the launch_unchecked calls are lexically inside the unsafe block.
"""Momentum SGD where the first step is a checked launch and later steps take the unchecked fast path."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def momentum_sgd(grad: Slice[f32], param: DisjointSlice[f32], buf: DisjointSlice[f32], lr: f32, mu: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    b_idx = thread.index_1d()
    if (b := buf.get_mut(b_idx)) is not None and (p := param.get_mut(idx)) is not None:
        v = mu * b.get() + grad[i]
        b.set(v)
        p.set(p.get() - lr * v)


@dataclass
class LaunchPolicy:
    """Counts and times launches that skip the per-launch checks once a configuration was validated."""

    unchecked_launches: int = 0
    seconds: float = 0.0
    validated: set[int] = field(default_factory=set)

    @contextlib.contextmanager
    def unchecked(self) -> Iterator[LaunchPolicy]:
        start = time.perf_counter()
        yield self
        self.seconds += time.perf_counter() - start


@dataclass
class Slot:
    param: sk.DeviceBuffer[f32]
    momentum: sk.DeviceBuffer[f32]
    config: simt.LaunchConfig1D


class MomentumSGD:
    def __init__(self, params: dict[str, sk.DeviceBuffer[f32]], dev: sk.Device, stream: sk.Stream,
                 lr: float = 0.1, mu: float = 0.9) -> None:
        self.dev, self.stream, self.lr, self.mu = dev, stream, lr, mu
        self.slots = {
            name: Slot(p, sk.zeros(len(p), f32, stream), simt.LaunchConfig1D.for_len(len(p), block=BLOCK))
            for name, p in params.items()
        }
        self.policy = LaunchPolicy()
        self.steps = 0

    def _validate(self, grads: dict[str, sk.DeviceBuffer[f32]]) -> None:
        for name, slot in self.slots.items():
            prepared = momentum_sgd.prepare(slot.config, self.dev)
            momentum_sgd.launch(prepared, self.stream, grads[name], slot.param, slot.momentum, self.lr, self.mu)
            self.policy.validated.add(id(slot))

    def step(self, grads: dict[str, sk.DeviceBuffer[f32]]) -> None:
        self.steps += 1
        if self.steps == 1:
            self._validate(grads)
            return
        with self.policy.unchecked(), simt.unsafe():  # unsafe is lexical: the block must be here
            for name, slot in self.slots.items():
                momentum_sgd.launch_unchecked(slot.config, self.stream, grads[name], slot.param, slot.momentum, self.lr, self.mu)
                self.policy.unchecked_launches += 1


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(2)
    target = {"emb": rng.standard_normal(64), "out": rng.standard_normal(40)}
    params = {k: sk.zeros(len(v), f32, stream) for k, v in target.items()}
    opt = MomentumSGD(params, dev, stream)
    for it in range(5):
        grads = {k: sk.to_device((p.to_numpy(stream) - target[k]).astype(np.float32), stream) for k, p in params.items()}
        opt.step(grads)
        loss = sum(float(((p.to_numpy(stream) - target[k]) ** 2).mean()) for k, p in params.items())
        print(f"step {it}: loss={loss:.4f}")
    print("unchecked launches:", opt.policy.unchecked_launches)


if __name__ == "__main__":
    main()
