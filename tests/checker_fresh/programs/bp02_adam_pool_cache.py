# fresh-expect: clean
# fresh-note: The pool cache is keyed on (slot, length), so every parameter gets its own exp_avg and exp_avg_sq buffers.
"""Adam over a small dict of parameters, with optimizer state allocated lazily from a caching buffer pool."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def adam_step(
    grad: Slice[f32],
    param: DisjointSlice[f32],
    m: DisjointSlice[f32],
    v: DisjointSlice[f32],
    lr: f32,
    beta1: f32,
    beta2: f32,
    eps: f32,
    bc1: f32,
    bc2: f32,
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(grad):
        g = grad[i]
        m_idx = thread.index_1d()
        v_idx = thread.index_1d()
        if (mi := m.get_mut(m_idx)) is not None and (vi := v.get_mut(v_idx)) is not None:
            new_m = beta1 * mi.get() + (1.0 - beta1) * g
            new_v = beta2 * vi.get() + (1.0 - beta2) * g * g
            mi.set(new_m)
            vi.set(new_v)
            if (pi := param.get_mut(idx)) is not None:
                pi.set(pi.get() - lr * (new_m / bc1) / (math.sqrt(new_v / bc2) + eps))


class BufferPool:
    """Hands out zero-initialised device buffers; memoized so repeated steps do not reallocate."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.allocations = 0

    @functools.cache
    def zeros(self, slot: str, n: int) -> sk.DeviceBuffer[f32]:
        self.allocations += 1
        return sk.zeros(n, f32, self.stream)


@dataclass
class ParamState:
    exp_avg: sk.DeviceBuffer[f32]
    exp_avg_sq: sk.DeviceBuffer[f32]
    step: int = 0


@dataclass
class AdamConfig:
    lr: float = 1e-2
    betas: tuple[float, float] = (0.9, 0.999)
    eps: float = 1e-8


@dataclass
class Adam:
    params: dict[str, sk.DeviceBuffer[f32]]
    pool: BufferPool
    device: sk.Device
    cfg: AdamConfig = field(default_factory=AdamConfig)
    state: dict[str, ParamState] = field(default_factory=dict)

    def _state_for(self, name: str) -> ParamState:
        if name not in self.state:
            n = len(self.params[name])
            self.state[name] = ParamState(exp_avg=self.pool.zeros(f"{name}.exp_avg", n), exp_avg_sq=self.pool.zeros(f"{name}.exp_avg_sq", n))
        return self.state[name]

    @functools.cached_property
    def _launches(self) -> dict[int, simt.PreparedLaunch]:
        sizes = {len(p) for p in self.params.values()}
        return {n: adam_step.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.device) for n in sizes}

    def step(self, grads: dict[str, sk.DeviceBuffer[f32]], stream: sk.Stream) -> None:
        b1, b2 = self.cfg.betas
        for name, param in self.params.items():
            st = self._state_for(name)
            st.step += 1
            bc1, bc2 = 1.0 - b1**st.step, 1.0 - b2**st.step
            launch = self._launches[len(param)]
            adam_step.launch(launch, stream, grads[name], param, st.exp_avg, st.exp_avg_sq, self.cfg.lr, b1, b2, self.cfg.eps, bc1, bc2)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(0)
    shapes = {"encoder.weight": 96, "encoder.bias": 32, "head.weight": 96}
    host = {k: rng.standard_normal(n).astype(np.float32) for k, n in shapes.items()}
    params = {k: sk.to_device(v, stream) for k, v in host.items()}
    opt = Adam(params, BufferPool(stream), dev)
    for it in range(3):
        grads = {k: sk.to_device((0.1 * (it + 1) * host[k]).astype(np.float32), stream) for k in shapes}
        opt.step(grads, stream)
    for name, p in params.items():
        delta = float(np.abs(p.to_numpy(stream) - host[name]).max())
        print(f"{name:16s} max |update| = {delta:.4f}")
    print("pool allocations:", opt.pool.allocations)


if __name__ == "__main__":
    main()
