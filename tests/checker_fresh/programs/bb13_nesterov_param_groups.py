# fresh-expect: clean
# fresh-note: SGD with Nesterov momentum over two parameter groups (dataclasses), each parameter with its own double-buffered momentum state, stopping early once the loss stalls.
"""SGD with Nesterov momentum over parameter groups, as torch.optim.SGD(nesterov=True) does it:

    v' = mu * v + g
    p' = p - lr * (g + mu * v')

The momentum buffer is double-buffered: each step reads `v` and writes `v'` into the spare buffer, then the two
swap.  Parameters are updated out of place the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def momentum(v: Slice[f32], grad: Slice[f32], v_next: DisjointSlice[f32], mu: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := v_next.get_mut(idx)) is not None:
        o.set(mu * v[i] + grad[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def nesterov_apply(p: Slice[f32], grad: Slice[f32], v: Slice[f32], p_next: DisjointSlice[f32], lr: f32, mu: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := p_next.get_mut(idx)) is not None:
        o.set(p[i] - lr * (grad[i] + mu * v[i]))


@dataclass
class Slot:
    param: sk.DeviceBuffer[f32]
    param_spare: sk.DeviceBuffer[f32]
    vel: sk.DeviceBuffer[f32]
    vel_spare: sk.DeviceBuffer[f32]


@dataclass
class Group:
    lr: float
    momentum: float
    slots: dict[str, Slot] = field(default_factory=dict)


def new_slot(init: np.ndarray, stream: sk.Stream) -> Slot:
    n = len(init)
    bufs = [sk.zeros(n, f32, stream) for _ in range(3)]
    return Slot(sk.to_device(init, stream), *bufs)


class NesterovSGD:
    def __init__(self, groups: list[Group], dev: sk.Device, stream: sk.Stream) -> None:
        self.groups, self.dev, self.stream = groups, dev, stream

    def step(self, grads: dict[str, sk.DeviceBuffer[f32]]) -> None:
        for group in self.groups:
            for name, s in group.slots.items():
                g = grads[name]
                cfg = simt.LaunchConfig1D.for_len(len(g), block=BLOCK)
                momentum.launch(momentum.prepare(cfg, self.dev), self.stream, s.vel, g, s.vel_spare, group.momentum)
                s.vel, s.vel_spare = s.vel_spare, s.vel
                prep = nesterov_apply.prepare(cfg, self.dev)
                nesterov_apply.launch(prep, self.stream, s.param, g, s.vel, s.param_spare, group.lr, group.momentum)
                s.param, s.param_spare = s.param_spare, s.param


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(13)
    backbone = Group(lr=0.05, momentum=0.9)
    head = Group(lr=0.1, momentum=0.8)
    for name, n in (("conv1.weight", 1728), ("conv1.bias", 64)):
        backbone.slots[name] = new_slot(rng.standard_normal(n).astype(np.float32), stream)
    head.slots["fc.weight"] = new_slot(rng.standard_normal(640).astype(np.float32), stream)
    opt = NesterovSGD([backbone, head], dev, stream)

    def all_slots():
        return {k: s for g in opt.groups for k, s in g.slots.items()}

    best, stalls = float("inf"), 0
    for step in range(20):
        hosts = {k: s.param.to_numpy(stream) for k, s in all_slots().items()}
        loss = sum(float(np.mean(h ** 2)) for h in hosts.values())
        if loss < best - 1e-4:
            best, stalls = loss, 0
        else:
            stalls += 1
        if stalls >= 2:
            break
        opt.step({k: sk.to_device(2.0 * h, stream) for k, h in hosts.items()})
    print(f"stopped after step {step}, best loss {best:.5f}")


if __name__ == "__main__":
    main()
