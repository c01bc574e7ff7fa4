# fresh-expect: clean
# fresh-note: AdamW over a dict of named parameters with per-parameter moment buffers created by a helper; each step queues the moment update with launch_async, waits for it in try/finally, then applies decoupled weight decay out of place.
"""AdamW (decoupled weight decay) over a parameter dict, with optimizer state kept per parameter name.

The moment update writes the next first and second moments into scratch buffers, which then become the current
ones; the parameter update writes a fresh buffer that replaces the parameter in the dict.
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
@simt.launch_contract(block=128)
def moments(grad: Slice[f32], m: Slice[f32], v: Slice[f32], m_out: DisjointSlice[f32], v_out: DisjointSlice[f32],
            b1: f32, b2: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(grad):
        g = grad[i]
        if (a := m_out.get_mut(idx)) is not None:
            a.set(b1 * m[i] + (1.0 - b1) * g)
        if (b := v_out.get_mut(thread.index_1d())) is not None:
            b.set(b2 * v[i] + (1.0 - b2) * g * g)


@simt.kernel
@simt.launch_contract(block=128)
def adamw_apply(p: Slice[f32], m: Slice[f32], v: Slice[f32], out: DisjointSlice[f32], lr: f32, step_size: f32,
                wd: f32, eps: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(p[i] * (1.0 - lr * wd) - step_size * m[i] / (math.sqrt(v[i]) + eps))


@dataclass
class Moments:
    m: sk.DeviceBuffer[f32]
    v: sk.DeviceBuffer[f32]
    m_scratch: sk.DeviceBuffer[f32]
    v_scratch: sk.DeviceBuffer[f32]
    t: int = 0


def zero_moments(n: int, stream: sk.Stream) -> Moments:
    m, v, ms, vs = (sk.zeros(n, f32, stream) for _ in range(4))
    return Moments(m, v, ms, vs)


class AdamW:
    def __init__(self, params: dict[str, sk.DeviceBuffer[f32]], dev: sk.Device, stream: sk.Stream,
                 lr: float = 0.05, betas: tuple[float, float] = (0.9, 0.99), wd: float = 0.01) -> None:
        self.params, self.dev, self.stream = params, dev, stream
        self.lr, self.betas, self.wd = lr, betas, wd
        self.state = {k: zero_moments(len(p), stream) for k, p in params.items()}

    def step(self, grads: dict[str, sk.DeviceBuffer[f32]]) -> None:
        b1, b2 = self.betas
        for name, grad in grads.items():
            st = self.state[name]
            cfg = simt.LaunchConfig1D.for_len(len(grad), block=128)
            pending = moments.launch_async(moments.prepare(cfg, self.dev), grad, st.m, st.v, st.m_scratch,
                                           st.v_scratch, b1, b2)
            try:
                st.t += 1
                size = self.lr * math.sqrt(1.0 - b2 ** st.t) / (1.0 - b1 ** st.t)
            finally:
                pending.sync_on(self.stream)
            st.m, st.m_scratch = st.m_scratch, st.m
            st.v, st.v_scratch = st.v_scratch, st.v
            out = sk.zeros(len(grad), f32, self.stream)
            adamw_apply.launch(adamw_apply.prepare(cfg, self.dev), self.stream, self.params[name], st.m, st.v, out,
                               self.lr, size, self.wd, 1e-8)
            self.params[name] = out


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(14)
    shapes = {"attn.qkv": 1536, "attn.out": 512, "ln.gamma": 64}
    target = {k: rng.standard_normal(n).astype(np.float32) for k, n in shapes.items()}
    opt = AdamW({k: sk.zeros(n, f32, stream) for k, n in shapes.items()}, dev, stream)
    for _ in range(4):
        grads = {k: sk.to_device(p.to_numpy(stream) - target[k], stream) for k, p in opt.params.items()}
        opt.step(grads)
    loss = sum(float(np.mean((p.to_numpy(stream) - target[k]) ** 2)) for k, p in opt.params.items())
    print("adamw: loss after 4 steps", round(loss, 4))


if __name__ == "__main__":
    main()
