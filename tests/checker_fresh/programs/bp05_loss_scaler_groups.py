# fresh-expect: E0502 at line 104
# fresh-note: The master-grad lookup `self._master.get(name, grad)` falls back to the gradient itself for groups without master weights, so unscale gets one buffer as its read-only input and its mutable output.
"""Mixed-precision loss scaling over parameter groups: unscale, overflow check, dynamic scale update, SGD."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def unscale(grad: Slice[f32], out: DisjointSlice[f32], found_inf: AtomicSlice[i32], inv_scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(grad):
        v = grad[i] * inv_scale
        if not (abs(v) <= 3.0e38):
            found_inf.fetch_max(0, i32(1))
        if (o := out.get_mut(idx)) is not None:
            o.set(v)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def sgd(grad: Slice[f32], param: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (p := param.get_mut(idx)) is not None:
        p.set(p.get() - lr * grad[i])


@dataclass
class ParamGroup:
    name: str
    params: sk.DeviceBuffer[f32]
    grads: sk.DeviceBuffer[f32]
    master_weights: bool = False
    lr: float = 0.05


class LossScaler:
    """A static loss scale."""

    def __init__(self, scale: float = 2.0**10) -> None:
        self.scale = scale

    @property
    def inv_scale(self) -> float:
        return 1.0 / self.scale

    def update(self, found_inf: bool) -> None:
        pass


class DynamicLossScaler(LossScaler):
    """Backs off on overflow, grows after `interval` clean steps."""

    def __init__(self, scale: float = 2.0**16, interval: int = 2) -> None:
        super().__init__(scale)
        self.interval = interval
        self.clean_steps = 0

    def update(self, found_inf: bool) -> None:
        if found_inf:
            self.scale *= 0.5
            self.clean_steps = 0
        else:
            self.clean_steps += 1
            if self.clean_steps % self.interval == 0:
                self.scale *= 2.0


@dataclass
class MixedPrecisionOptimizer:
    groups: list[ParamGroup]
    scaler: LossScaler
    device: sk.Device
    stream: sk.Stream
    _master: dict[str, sk.DeviceBuffer[f32]] = field(default_factory=dict)
    skipped: int = 0

    def __post_init__(self) -> None:
        for g in self.groups:
            if g.master_weights:
                self._master[g.name] = sk.zeros(len(g.grads), f32, self.stream)

    def _prep(self, kernel, n: int) -> simt.PreparedLaunch:
        return kernel.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.device)

    def step(self) -> bool:
        flag = sk.zeros(1, i32, self.stream)
        master_grads = {}
        for g in self.groups:
            out = self._master.get(g.name, g.grads)
            unscale.launch(self._prep(unscale, len(g.grads)), self.stream, g.grads, out, flag, self.scaler.inv_scale)
            master_grads[g.name] = out
        overflow = bool(flag.to_numpy(self.stream)[0])
        self.scaler.update(overflow)
        if overflow:
            self.skipped += 1
            return False
        for g in self.groups:
            sgd.launch(self._prep(sgd, len(g.params)), self.stream, master_grads[g.name], g.params, g.lr)
        return True


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)
    sizes = {"attn": 80, "mlp": 120, "norm": 16}
    groups = [
        ParamGroup(name, sk.to_device(rng.standard_normal(n).astype(np.float32), stream),
                   sk.zeros(n, f32, stream), master_weights=name != "norm")
        for name, n in sizes.items()
    ]
    opt = MixedPrecisionOptimizer(groups, DynamicLossScaler(), dev, stream)
    for it in range(4):
        for g in groups:
            raw = rng.standard_normal(len(g.grads)).astype(np.float32) * np.float32(opt.scaler.scale)
            if it == 1:
                raw[0] = np.inf
            g.grads.copy_from_numpy(raw, stream)
        applied = opt.step()
        print(f"iter {it}: applied={applied} scale={opt.scaler.scale:.0f}")
    print("skipped steps:", opt.skipped)
    print("attn[:3] =", np.round(groups[0].params.to_numpy(stream)[:3], 3))


if __name__ == "__main__":
    main()
