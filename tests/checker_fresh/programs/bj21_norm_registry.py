# fresh-expect: E0308 at line 98
# fresh-note: Normalization layers built from a name registry; `LayerNorm.__init__` prepares `layernorm_rows` by name instead of through the class's `kernel` attribute, so the `RMSNorm` subclass (which only overrides `kernel`) launches `rmsnorm_rows` with a launch prepared for `layernorm_rows`.
"""Pre-norm blocks of a toy transformer trunk: LayerNorm or RMSNorm chosen per block from a config.

One thread block per row, one thread per feature; each thread recomputes its row's statistics, which is
fine for the 32-wide rows of this example.  Layer classes register themselves under a name so a model
can be described by a list of (name, kwargs) entries.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DIM = 32

LAYERS: dict[str, type["Layer"]] = {}


def register(name: str) -> Callable[[type["Layer"]], type["Layer"]]:
    def deco(cls: type["Layer"]) -> type["Layer"]:
        LAYERS[name] = cls
        return cls
    return deco


@simt.kernel
@simt.launch_contract(block=DIM)
def layernorm_rows(x: Slice[f32], gamma: Slice[f32], beta: Slice[f32], out: DisjointSlice[f32], eps: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    base = (i // DIM) * DIM
    mean = f32(0.0)
    for j in range(DIM):
        mean += x[base + j]
    mean = mean / DIM
    var = f32(0.0)
    for j in range(DIM):
        var += (x[base + j] - mean) * (x[base + j] - mean)
    var = var / DIM
    if (o := out.get_mut(idx)) is not None:
        o.set((x[i] - mean) / math.sqrt(var + eps) * gamma[i % DIM] + beta[i % DIM])


@simt.kernel
@simt.launch_contract(block=DIM)
def rmsnorm_rows(x: Slice[f32], gamma: Slice[f32], beta: Slice[f32], out: DisjointSlice[f32], eps: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    base = (i // DIM) * DIM
    ms = f32(0.0)
    for j in range(DIM):
        ms += x[base + j] * x[base + j]
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] / math.sqrt(ms / DIM + eps) * gamma[i % DIM] + beta[i % DIM])


class Layer:
    def __init__(self, rows: int, device: sk.Device, stream: sk.Stream) -> None:
        self.rows = rows
        self.device = device
        self.stream = stream

    def parameters(self) -> Iterator[tuple[str, sk.DeviceBuffer]]:
        yield from ()

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        raise NotImplementedError

    def __call__(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        return self.forward(x)


@register("layernorm")
class LayerNorm(Layer):
    kernel = layernorm_rows

    def __init__(self, rows: int, device: sk.Device, stream: sk.Stream, eps: float = 1e-5) -> None:
        super().__init__(rows, device, stream)
        self.eps = eps
        self.gamma = sk.to_device(np.ones(DIM, np.float32), stream)
        self.beta = sk.zeros(DIM, f32, stream)
        self.prepared = layernorm_rows.prepare(simt.LaunchConfig1D(grid=rows, block=DIM), device)

    def parameters(self) -> Iterator[tuple[str, sk.DeviceBuffer]]:
        yield "gamma", self.gamma
        yield "beta", self.beta

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        out = sk.zeros(self.rows * DIM, f32, self.stream)
        self.kernel.launch(self.prepared, self.stream, x, self.gamma, self.beta, out, self.eps)
        return out


@register("rmsnorm")
class RMSNorm(LayerNorm):
    kernel = rmsnorm_rows  # same parameters; beta stays zero unless a bias is loaded


@register("scale")
class Scale(Layer):
    def __init__(self, rows: int, device: sk.Device, stream: sk.Stream, factor: float = 1.0) -> None:
        super().__init__(rows, device, stream)
        self.factor = factor

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        return sk.to_device(x.to_numpy(self.stream) * np.float32(self.factor), self.stream)


def build(spec: list[tuple[str, dict[str, Any]]], rows: int, device: sk.Device, stream: sk.Stream) -> list[Layer]:
    layers = []
    for name, kwargs in spec:
        match name:
            case "layernorm" | "rmsnorm" | "scale":
                layers.append(LAYERS[name](rows, device, stream, **kwargs))
            case _:
                raise KeyError(f"unknown layer {name!r}")
    return layers


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rows = 6
    spec = [("layernorm", {}), ("scale", {"factor": 3.0}), ("rmsnorm", {"eps": 1e-6})]
    model = build(spec, rows, dev, stream)
    x = sk.to_device(np.random.default_rng(8).standard_normal(rows * DIM).astype(np.float32) * 5.0, stream)
    for i, layer in enumerate(model):
        x = layer(x)
        h = x.to_numpy(stream).reshape(rows, DIM)
        print(f"{i} {type(layer).__name__:>9}: row rms {np.sqrt((h**2).mean(axis=1)).round(3)}")
    n_params = sum(len(buf) for layer in model for _, buf in layer.parameters())
    print("parameters:", n_params)


if __name__ == "__main__":
    main()
