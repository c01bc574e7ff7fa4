# fresh-expect: clean
# fresh-note: Each lazy prepare lambda binds its kernel through a default argument (`kern=kern`), so the "sgd" factory prepares sgd_update and every launch gets a launch prepared for its own kernel.
"""Per-group optimizers (SGD for dense layers, Adagrad for embeddings) with lazily prepared launches."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def sgd_update(grad: Slice[f32], param: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (p := param.get_mut(idx)) is not None:
        p.set(p.get() - lr * grad[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def adagrad_update(grad: Slice[f32], param: DisjointSlice[f32], accum: DisjointSlice[f32], lr: f32, eps: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    a_idx = thread.index_1d()
    if (a := accum.get_mut(a_idx)) is not None and (p := param.get_mut(idx)) is not None:
        g = grad[i]
        s = a.get() + g * g
        a.set(s)
        p.set(p.get() - lr * g / (math.sqrt(s) + eps))


KERNELS = {"sgd": sgd_update, "adagrad": adagrad_update}


class KernelRegistry:
    """Prepares each optimizer kernel for a length the first time a group asks for it."""

    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self._factories: dict[str, Callable[[int], simt.PreparedLaunch]] = {}
        for name, kern in KERNELS.items():
            self._factories[name] = lambda n, kern=kern: kern.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.dev)
        self._cache: dict[tuple[str, int], simt.PreparedLaunch] = {}

    def prepared(self, name: str, n: int) -> simt.PreparedLaunch:
        key = (name, n)
        if key not in self._cache:
            self._cache[key] = self._factories[name](n)
        return self._cache[key]


@dataclass
class Group:
    name: str
    optimizer: str
    param: sk.DeviceBuffer[f32]
    lr: float
    accum: sk.DeviceBuffer[f32] | None = None


def step(groups: list[Group], grads: dict[str, sk.DeviceBuffer[f32]], reg: KernelRegistry, stream: sk.Stream) -> None:
    for g in groups:
        n = len(g.param)
        match g.optimizer:
            case "adagrad":
                assert g.accum is not None
                adagrad_update.launch(reg.prepared("adagrad", n), stream, grads[g.name], g.param, g.accum, g.lr, 1e-10)
            case "sgd":
                sgd_update.launch(reg.prepared("sgd", n), stream, grads[g.name], g.param, g.lr)
            case other:
                raise ValueError(f"unknown optimizer {other!r}")


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(9)
    spec = [("token_emb", "adagrad", 128, 0.5), ("proj", "sgd", 48, 0.2), ("head", "sgd", 32, 0.2)]
    targets = {name: rng.standard_normal(n).astype(np.float32) for name, _, n, _ in spec}
    groups = [
        Group(name, opt, sk.zeros(n, f32, stream), lr, sk.zeros(n, f32, stream) if opt == "adagrad" else None)
        for name, opt, n, lr in spec
    ]
    reg = KernelRegistry(dev)
    for it in range(4):
        grads = {g.name: sk.to_device(g.param.to_numpy(stream) - targets[g.name], stream) for g in groups}
        step(groups, grads, reg, stream)
        err = {g.name: round(float(np.abs(g.param.to_numpy(stream) - targets[g.name]).mean()), 3) for g in groups}
        print(f"iter {it}: {err}")


if __name__ == "__main__":
    main()
