# fresh-expect: E0502 at line 83
# fresh-note: SGD with momentum over a registry of parameters; the optimizer's scratch lookup falls back to the parameter's own buffer for small tensors (the bias), so `apply_update` reads and writes `p.data` in one launch.
"""SGD with Nesterov-free momentum for a tiny two-layer regression model, no torch.

Parameters live in a dict registry; the optimizer keeps one momentum buffer per parameter and a
scratch buffer that receives the updated weights before the two are swapped (ping-pong).  Small
tensors were meant to skip the scratch allocation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
SMALL = 64  # tensors at most this long are "cheap" and were meant to be updated without a scratch copy


@simt.kernel
@simt.launch_contract(block=BLOCK)
def momentum_update(grad: Slice[f32], mom: Slice[f32], mom_out: DisjointSlice[f32], beta: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (m := mom_out.get_mut(idx)) is not None:
        m.set(beta * mom[i] + grad[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def apply_update(param: Slice[f32], mom: Slice[f32], out: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(param[i] - lr * mom[i])


@dataclass
class Param:
    name: str
    data: sk.DeviceBuffer
    grad: sk.DeviceBuffer

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class SGD:
    params: list[Param]
    stream: sk.Stream
    device: sk.Device
    lr: float = 0.05
    beta: float = 0.9
    momentum: dict[str, sk.DeviceBuffer] = field(default_factory=dict)
    momentum_next: dict[str, sk.DeviceBuffer] = field(default_factory=dict)
    scratch: dict[str, sk.DeviceBuffer] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for p in self.params:
            self.momentum[p.name] = sk.zeros(p.size, f32, self.stream)
            self.momentum_next[p.name] = sk.zeros(p.size, f32, self.stream)
            if p.size > SMALL:
                self.scratch[p.name] = sk.zeros(p.size, f32, self.stream)

    def _config(self, n: int) -> simt.LaunchConfig1D:
        return simt.LaunchConfig1D.for_len(n, block=BLOCK)

    def step(self) -> None:
        for p in self.params:
            cfg = self._config(p.size)
            mom, mom_next = self.momentum[p.name], self.momentum_next[p.name]
            momentum_update.launch(momentum_update.prepare(cfg, self.device), self.stream, p.grad, mom, mom_next, self.beta)
            self.momentum[p.name], self.momentum_next[p.name] = mom_next, mom

            target = self.scratch.get(p.name, p.data)
            apply_update.launch(apply_update.prepare(cfg, self.device), self.stream, p.data, mom_next, target, self.lr)
            if target is not p.data:
                self.scratch[p.name] = p.data
                p.data = target


def numpy_grads(w: np.ndarray, b: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pred = x @ w + b
    err = pred - y
    return (x.T @ err / len(x)).astype(np.float32).ravel(), err.mean(axis=0).astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(7)
    n_in, n_out = 16, 8
    x = rng.standard_normal((64, n_in)).astype(np.float32)
    true_w = rng.standard_normal((n_in, n_out)).astype(np.float32)
    y = x @ true_w + 0.5

    w_host = np.zeros((n_in, n_out), np.float32)
    b_host = np.zeros(n_out, np.float32)
    params = [
        Param("fc.weight", sk.to_device(w_host.ravel(), stream), sk.zeros(n_in * n_out, f32, stream)),
        Param("fc.bias", sk.to_device(b_host, stream), sk.zeros(n_out, f32, stream)),
    ]
    registry = {p.name: p for p in params}
    opt = SGD(params, stream, dev)

    for epoch in range(3):
        w = registry["fc.weight"].data.to_numpy(stream).reshape(n_in, n_out)
        b = registry["fc.bias"].data.to_numpy(stream)
        gw, gb = numpy_grads(w, b, x, y)
        registry["fc.weight"].grad.copy_from_numpy(gw)
        registry["fc.bias"].grad.copy_from_numpy(gb)
        opt.step()
        loss = float(((x @ w + b - y) ** 2).mean())
        print(f"epoch {epoch}: loss {loss:.4f}")

    print("final bias", registry["fc.bias"].data.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
