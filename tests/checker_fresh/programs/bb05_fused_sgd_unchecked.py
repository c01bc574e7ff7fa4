# fresh-expect: E0133 at line 56
# fresh-note: Fused SGD with weight decay over parameter groups, re-launching with `launch_unchecked` after a one-time prepare. Bug: the `with simt.unsafe():` block is in `step`, but the `launch_unchecked` call sits in the helper method `_launch_fast` it calls, which the lexical unsafe block does not cover (E0133).
"""A fused SGD-with-weight-decay step that skips launch validation on the hot path.

The optimizer prepares one validated launch per parameter group at construction time, checks it once, and
then re-launches with `launch_unchecked` every step, the way a hand-tuned PyTorch extension skips its Python
argument checks after a warm-up step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 256


@simt.kernel
@simt.launch_contract(block=BLOCK)
def sgd_wd(param: Slice[f32], grad: Slice[f32], out: DisjointSlice[f32], lr: f32, wd: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(param[i] - lr * (grad[i] + wd * param[i]))


@dataclass
class ParamGroup:
    name: str
    lr: float
    weight_decay: float
    params: list[sk.DeviceBuffer[f32]] = field(default_factory=list)


class FusedSGD:
    def __init__(self, groups: list[ParamGroup], dev: sk.Device, stream: sk.Stream) -> None:
        self.groups = groups
        self.dev = dev
        self.stream = stream
        self.configs = {}
        for g in groups:
            for p in g.params:
                cfg = simt.LaunchConfig1D.for_len(len(p), block=BLOCK)
                sgd_wd.prepare(cfg, dev)
                self.configs[len(p)] = cfg

    def _launch_fast(self, group: ParamGroup, k: int, grad: sk.DeviceBuffer[f32]) -> None:
        p = group.params[k]
        out = sk.zeros(len(p), f32, self.stream)
        sgd_wd.launch_unchecked(self.configs[len(p)], self.stream, p, grad, out, group.lr, group.weight_decay)
        group.params[k] = out

    def step(self, grads: dict[str, list[sk.DeviceBuffer[f32]]]) -> None:
        with simt.unsafe():
            for group in self.groups:
                for k, grad in enumerate(grads[group.name]):
                    self._launch_fast(group, k, grad)


def quadratic_grads(groups: list[ParamGroup], stream: sk.Stream) -> dict[str, list[sk.DeviceBuffer[f32]]]:
    return {g.name: [sk.to_device(p.to_numpy(stream) - 1.0, stream) for p in g.params] for g in groups}


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)

    def init(n: int) -> sk.DeviceBuffer[f32]:
        return sk.to_device(rng.standard_normal(n).astype(np.float32), stream)

    groups = [
        ParamGroup("backbone", lr=0.1, weight_decay=1e-4, params=[init(2048), init(256)]),
        ParamGroup("head", lr=0.3, weight_decay=0.0, params=[init(512)]),
    ]
    opt = FusedSGD(groups, dev, stream)
    for _ in range(4):
        opt.step(quadratic_grads(groups, stream))
    dist = [float(np.abs(p.to_numpy(stream) - 1.0).mean()) for g in groups for p in g.params]
    print("mean distance to the optimum per tensor:", [round(d, 4) for d in dist])


if __name__ == "__main__":
    main()
