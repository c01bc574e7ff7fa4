# fresh-expect: clean
# fresh-note: A registry maps activation names to their kernel and caches prepared launches keyed by (kernel name, length); a small model runs its activation layers by looking both up, so each launch uses its own kernel's prepared launch.
"""A model registry for activation layers: `Registry.register` records a kernel under a layer name and the
model builds its layers from a config list, as `timm`'s create_act_layer does.  Prepared launches are cached
per kernel and size, so repeated forward passes do not re-validate their configurations.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def gelu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = x[i]
        o.set(0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v * v * v))))


@simt.kernel
@simt.launch_contract(block=128)
def silu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = x[i]
        o.set(v / (1.0 + math.exp(-v)))


class Registry:
    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self.kernels = {}
        self.plans = {}

    def register(self, name: str, kernel) -> None:
        self.kernels[name] = kernel

    def plan(self, name: str, n: int):
        key = (name, n)
        if key not in self.plans:
            self.plans[key] = self.kernels[name].prepare(simt.LaunchConfig1D.for_len(n, block=128), self.dev)
        return self.plans[key]

    def run(self, name: str, stream: sk.Stream, x: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        out = sk.zeros(len(x), f32, stream)
        self.kernels[name].launch(self.plan(name, len(x)), stream, x, out)
        return out


class ActivationStack:
    def __init__(self, registry: Registry, names: list[str], stream: sk.Stream) -> None:
        self.layers = [partial(registry.run, name, stream) for name in names]

    def __call__(self, x: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        for layer in self.layers:
            x = layer(x)
        return x


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    registry = Registry(dev)
    registry.register("gelu", gelu)
    registry.register("silu", silu)
    model = ActivationStack(registry, ["gelu", "silu", "gelu"], stream)
    xs = np.linspace(-3.0, 3.0, 1000, dtype=np.float32)
    for _ in range(2):
        y = model(sk.to_device(xs, stream)).to_numpy(stream)
    print("activation stack:", np.round(y[::250], 4), "cached plans:", sorted(registry.plans))


if __name__ == "__main__":
    main()
