# fresh-expect: clean
# fresh-note: Mixed-precision AdamW with f32 master weights behind f16 model weights; the lazily created per-parameter state builds one `sk.zeros` buffer per key with a dict comprehension, so `exp_avg` and `exp_avg_sq` are distinct outputs of `adamw_master`.
"""AdamW on f32 master weights for an f16 model, host code without torch.

The model keeps its parameters in f16; the optimizer owns an f32 master copy of each one and the
Adam moments.  One SIMT kernel updates the moments and the master weights, a second one rounds the
master weights back into the f16 model parameters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f16, f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def adamw_master(grad: Slice[f16], exp_avg: DisjointSlice[f32], exp_avg_sq: DisjointSlice[f32],
                 master: DisjointSlice[f32], lr: f32, beta1: f32, beta2: f32, eps: f32, wd: f32,
                 bc1: f32, bc2: f32) -> None:
    i = thread.index_1d().get()
    if i >= len(master):
        return
    g = f32(grad[i])
    m_new = f32(0.0)
    v_new = f32(0.0)
    if (m := exp_avg.get_mut(thread.index_1d())) is not None:
        m_new = beta1 * m.get() + (1.0 - beta1) * g
        m.set(m_new)
    if (v := exp_avg_sq.get_mut(thread.index_1d())) is not None:
        v_new = beta2 * v.get() + (1.0 - beta2) * g * g
        v.set(v_new)
    if (w := master.get_mut(thread.index_1d())) is not None:
        p = w.get()
        w.set(p - lr * ((m_new / bc1) / (math.sqrt(v_new / bc2) + eps) + wd * p))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def round_to_half(master: Slice[f32], model: DisjointSlice[f16]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := model.get_mut(idx)) is not None:
        o.set(f16(master[i]))


@dataclass
class HalfParam:
    name: str
    data: sk.DeviceBuffer  # f16
    grad: sk.DeviceBuffer  # f16

    def __len__(self) -> int:
        return len(self.data)


class Optimizer:
    def __init__(self, params: list[HalfParam], defaults: dict[str, float]) -> None:
        self.param_groups = [{"params": list(params), **defaults}]
        self.state: dict[str, dict[str, sk.DeviceBuffer]] = {}
        self.steps = 0

    def step(self) -> None:
        raise NotImplementedError


class AdamW(Optimizer):
    def __init__(self, params: list[HalfParam], device: sk.Device, stream: sk.Stream, lr: float = 1e-2,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0.01) -> None:
        super().__init__(params, {"lr": lr, "beta1": betas[0], "beta2": betas[1], "eps": eps, "wd": weight_decay})
        self.device = device
        self.stream = stream
        self.master = {p.name: sk.to_device(p.data.to_numpy(stream).astype(np.float32), stream) for p in params}

    def _state_for(self, p: HalfParam) -> dict[str, sk.DeviceBuffer]:
        if p.name not in self.state:
            self.state[p.name] = {key: sk.zeros(len(p), f32, self.stream) for key in ("exp_avg", "exp_avg_sq")}
        return self.state[p.name]

    def step(self) -> None:
        self.steps += 1
        for group in self.param_groups:
            bc1 = 1.0 - group["beta1"] ** self.steps
            bc2 = 1.0 - group["beta2"] ** self.steps
            for p in group["params"]:
                cfg = simt.LaunchConfig1D.for_len(len(p), block=BLOCK)
                st = self._state_for(p)
                master = self.master[p.name]
                hyper = (group["lr"], group["beta1"], group["beta2"], group["eps"], group["wd"], bc1, bc2)
                prepared = adamw_master.prepare(cfg, self.device)
                adamw_master.launch(prepared, self.stream, p.grad, st["exp_avg"], st["exp_avg_sq"], master, *hyper)
                round_to_half.launch(round_to_half.prepare(cfg, self.device), self.stream, master, p.data)


@dataclass
class QuadraticTask:
    target: np.ndarray
    history: list[float] = field(default_factory=list)

    def grad(self, w: np.ndarray) -> np.ndarray:
        self.history.append(float(((w - self.target) ** 2).mean()))
        return (2.0 * (w - self.target) / w.size).astype(np.float16)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(9)
    shapes = {"proj.weight": 96, "proj.bias": 12}
    tasks = {name: QuadraticTask(rng.standard_normal(n).astype(np.float32)) for name, n in shapes.items()}
    params = [
        HalfParam(name, sk.to_device(np.zeros(n, np.float16), stream), sk.zeros(n, f16, stream))
        for name, n in shapes.items()
    ]
    opt = AdamW(params, dev, stream, lr=0.05)
    for step in range(4):
        for p in params:
            w = p.data.to_numpy(stream).astype(np.float32)
            p.grad.copy_from_numpy(tasks[p.name].grad(w))
        opt.step()
        print(f"step {step}: " + ", ".join(f"{n} {t.history[-1]:.4f}" for n, t in tasks.items()))


if __name__ == "__main__":
    main()
