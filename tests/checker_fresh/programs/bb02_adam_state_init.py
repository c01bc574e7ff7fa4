# fresh-expect: E0499 at line 82
# fresh-known-miss: cli,mypy a `[sk.zeros(...)] * 2` pair unpacked into a dataclass stored in a dict attribute by one method and launched by another: fields of objects kept in a dict attribute across methods are not followed (the repetition itself is)
# fresh-note: Adam optimizer over a dict of parameters with lazily created moment state. Bug: `_zeros_like_pair` builds its scratch pair with `[sk.zeros(...)] * 2`, so `m_next` and `v_next` are one buffer and `adam_moments` gets it as two DisjointSlice outputs (E0499).
"""Adam over a dict of named parameters, with lazily created optimizer state.
Each step reads the previous first and second moments and writes the next ones into scratch buffers, then the
state swaps current and scratch (torch.optim.Adam keeps `exp_avg` / `exp_avg_sq` per parameter the same way).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def adam_moments(grad: Slice[f32], m_prev: Slice[f32], v_prev: Slice[f32],
                 m_next: DisjointSlice[f32], v_next: DisjointSlice[f32], beta1: f32, beta2: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(grad):
        return
    g = grad[i]
    if (m := m_next.get_mut(idx)) is not None:
        m.set(beta1 * m_prev[i] + (1.0 - beta1) * g)
    if (v := v_next.get_mut(thread.index_1d())) is not None:
        v.set(beta2 * v_prev[i] + (1.0 - beta2) * g * g)


@simt.kernel
@simt.launch_contract(block=256)
def adam_apply(param: Slice[f32], m: Slice[f32], v: Slice[f32], out: DisjointSlice[f32],
               step_size: f32, eps: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(param[i] - step_size * m[i] / (math.sqrt(v[i]) + eps))


@dataclass
class AdamState:
    m: sk.DeviceBuffer[f32]
    v: sk.DeviceBuffer[f32]
    m_next: sk.DeviceBuffer[f32]
    v_next: sk.DeviceBuffer[f32]
    step: int = 0


def _zeros_like_pair(n: int, stream: sk.Stream) -> list[sk.DeviceBuffer[f32]]:
    return [sk.zeros(n, f32, stream)] * 2


class Adam:
    def __init__(self, params: dict[str, sk.DeviceBuffer[f32]], dev: sk.Device, stream: sk.Stream,
                 lr: float = 1e-2, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8) -> None:
        self.params = params
        self.dev, self.stream = dev, stream
        self.lr, self.betas, self.eps = lr, betas, eps
        self.state: dict[str, AdamState] = {}

    def _state_for(self, name: str) -> AdamState:
        if name not in self.state:
            n = len(self.params[name])
            m, v = sk.zeros(n, f32, self.stream), sk.zeros(n, f32, self.stream)
            m_next, v_next = _zeros_like_pair(n, self.stream)
            self.state[name] = AdamState(m, v, m_next, v_next)
        return self.state[name]

    def step(self, grads: dict[str, sk.DeviceBuffer[f32]]) -> None:
        b1, b2 = self.betas
        for name, grad in grads.items():
            st = self._state_for(name)
            n = len(grad)
            prep = adam_moments.prepare(simt.LaunchConfig1D.for_len(n, block=256), self.dev)
            adam_moments.launch(prep, self.stream, grad, st.m, st.v, st.m_next, st.v_next, b1, b2)
            st.m, st.m_next = st.m_next, st.m
            st.v, st.v_next = st.v_next, st.v
            st.step += 1
            size = self.lr * math.sqrt(1.0 - b2 ** st.step) / (1.0 - b1 ** st.step)
            new = sk.zeros(n, f32, self.stream)
            apply_prep = adam_apply.prepare(simt.LaunchConfig1D.for_len(n, block=256), self.dev)
            adam_apply.launch(apply_prep, self.stream, self.params[name], st.m, st.v, new, size, self.eps)
            self.params[name] = new


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(0)
    shapes = {"encoder.weight": 1024, "encoder.bias": 64, "head.weight": 512}
    target = {k: rng.standard_normal(n).astype(np.float32) for k, n in shapes.items()}
    params = {k: sk.zeros(n, f32, stream) for k, n in shapes.items()}
    opt = Adam(params, dev, stream, lr=0.05)
    for _ in range(3):
        grads = {k: sk.to_device(2.0 * (p.to_numpy(stream) - target[k]), stream) for k, p in opt.params.items()}
        opt.step(grads)
    loss = sum(float(np.mean((p.to_numpy(stream) - target[k]) ** 2)) for k, p in opt.params.items())
    print("adam: loss after 3 steps", round(loss, 4))


if __name__ == "__main__":
    main()
