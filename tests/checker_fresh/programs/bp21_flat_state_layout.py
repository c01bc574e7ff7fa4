# fresh-expect: E0499 at line 86
# fresh-known-miss: cli,mypy flat state views at offsets aligned with `itertools.accumulate` over unaligned lengths: computed view ranges are not compared
# fresh-note: FlatAdamState aligns each slot's start but accumulates the unaligned lengths, so a parameter whose first moment got padded runs into its own second moment and adamw gets two overlapping mutable views.
"""AdamW with all optimizer state in one flat, aligned allocation (one m and one v slot per parameter)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
ALIGN = 32  # elements: 128-byte aligned slots


def align_up(n: int, a: int = ALIGN) -> int:
    return -(-n // a) * a


@simt.kernel
@simt.launch_contract(block=BLOCK)
def adamw(grad: Slice[f32], param: DisjointSlice[f32], m: DisjointSlice[f32], v: DisjointSlice[f32],
          lr: f32, wd: f32, bc1: f32, bc2: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    mi_idx = thread.index_1d()
    vi_idx = thread.index_1d()
    if (mi := m.get_mut(mi_idx)) is not None and (vi := v.get_mut(vi_idx)) is not None:
        g = grad[i]
        new_m = 0.9 * mi.get() + 0.1 * g
        new_v = 0.999 * vi.get() + 0.001 * g * g
        mi.set(new_m)
        vi.set(new_v)
        if (p := param.get_mut(idx)) is not None:
            w = p.get()
            p.set(w - lr * ((new_m / bc1) / (math.sqrt(new_v / bc2) + 1e-8) + wd * w))


class FlatAdamState:
    """Every parameter's exp_avg and exp_avg_sq in one allocation, each slot starting on an ALIGN boundary."""

    KINDS = ("exp_avg", "exp_avg_sq")

    def __init__(self, sizes: dict[str, int], stream: sk.Stream) -> None:
        self.stream = stream
        keys = list(itertools.product(sizes, self.KINDS))
        lengths = [sizes[name] for name, _ in keys]
        starts = [align_up(offset) for offset in itertools.accumulate(lengths, initial=0)][:-1]
        self.slots = {key: (start, start + n) for key, start, n in zip(keys, starts, lengths)}
        self.flat = sk.zeros(align_up(max(stop for _, stop in self.slots.values())), f32, stream)

    def view(self, name: str, kind: str) -> sk.DeviceBuffer[f32]:
        start, stop = self.slots[name, kind]
        return self.flat.view(start, stop)

    def moments(self, name: str) -> tuple[sk.DeviceBuffer[f32], sk.DeviceBuffer[f32]]:
        m, v = (self.view(name, kind) for kind in self.KINDS)
        return m, v

    def __iter__(self) -> Iterator[tuple[str, str, np.ndarray]]:
        host = self.flat.to_numpy(self.stream)
        for (name, kind), (start, stop) in self.slots.items():
            yield name, kind, host[start:stop]


class AdamW:
    def __init__(self, params: dict[str, sk.DeviceBuffer[f32]], dev: sk.Device, stream: sk.Stream,
                 lr: float = 0.05, weight_decay: float = 0.01) -> None:
        self.params, self.stream, self.lr, self.wd = params, stream, lr, weight_decay
        self.state = FlatAdamState({k: len(p) for k, p in params.items()}, stream)
        self.launches = {k: adamw.prepare(simt.LaunchConfig1D.for_len(len(p), block=BLOCK), dev) for k, p in params.items()}
        self.t = 0

    def step(self, grads: dict[str, sk.DeviceBuffer[f32]]) -> None:
        self.t += 1
        bc1, bc2 = 1 - 0.9**self.t, 1 - 0.999**self.t
        for name, param in self.params.items():
            m, v = self.state.moments(name)
            adamw.launch(self.launches[name], self.stream, grads[name], param, m, v, self.lr, self.wd, bc1, bc2)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    sizes = {"tok_emb": 100, "proj": 120, "ln": 32}
    targets = {k: rng.standard_normal(n).astype(np.float32) for k, n in sizes.items()}
    params = {k: sk.zeros(n, f32, stream) for k, n in sizes.items()}
    opt = AdamW(params, dev, stream)
    for it in range(3):
        grads = {k: sk.to_device(p.to_numpy(stream) - targets[k], stream) for k, p in params.items()}
        opt.step(grads)
        print(f"step {it}: " + ", ".join(f"{k}={float(np.abs(p.to_numpy(stream) - targets[k]).mean()):.3f}" for k, p in params.items()))
    for name, kind, values in opt.state:
        print(f"{name}.{kind}: |mean| = {float(np.abs(values).mean()):.4f}")


if __name__ == "__main__":
    main()
