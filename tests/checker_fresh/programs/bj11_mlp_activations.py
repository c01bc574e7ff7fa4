# fresh-expect: E0308 at line 94
# fresh-known-miss: cli,mypy `functools.partial(ACTIVATIONS[name].launch, self.prepared[default])` returned by a method: a partial of a launch method with a prepared launch bound is not followed
# fresh-note: An MLP picks a bias+activation kernel per layer from a registry and binds it with functools.partial; the partial binds the prepared launch of the model-wide default activation instead of the layer's own, so the GELU layer launches `gelu_bias` with a launch prepared for `relu_bias`.
"""Inference for a small MLP whose layers may override the model's activation, host code without torch.
The matrix products run in numpy; the fused bias + activation epilogue runs on the device, one SIMT kernel
per activation, all registered in `ACTIVATIONS` and prepared once per model.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
SQRT_2_OVER_PI = 0.7978845608028654


@simt.kernel
@simt.launch_contract(block=BLOCK)
def relu_bias(x: Slice[f32], bias: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(x[i] + bias[i % len(bias)], f32(0.0)))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def gelu_bias(x: Slice[f32], bias: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = x[i] + bias[i % len(bias)]
        o.set(0.5 * v * (1.0 + math.tanh(SQRT_2_OVER_PI * (v + 0.044715 * v * v * v))))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def silu_bias(x: Slice[f32], bias: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = x[i] + bias[i % len(bias)]
        o.set(v / (1.0 + math.exp(-v)))


ACTIVATIONS = {"relu": relu_bias, "gelu": gelu_bias, "silu": silu_bias}


@dataclass
class MLPConfig:
    widths: tuple[int, ...]
    batch: int = 4
    activation: str = "relu"
    overrides: dict[int, str] = field(default_factory=dict)  # layer index -> activation name

    def activation_of(self, layer: int) -> str:
        return self.overrides.get(layer, self.activation)


class MLP:
    def __init__(self, cfg: MLPConfig, device: sk.Device, stream: sk.Stream, seed: int = 0) -> None:
        self.cfg = cfg
        self.stream = stream
        rng = np.random.default_rng(seed)
        self.weights = [
            (rng.standard_normal((fan_in, fan_out)) / math.sqrt(fan_in)).astype(np.float32)
            for fan_in, fan_out in zip(cfg.widths, cfg.widths[1:])
        ]
        self.biases = [sk.to_device(rng.standard_normal(w.shape[1]).astype(np.float32) * 0.1, stream)
                       for w in self.weights]
        elems = cfg.batch * max(cfg.widths)
        config = simt.LaunchConfig1D.for_len(elems, block=BLOCK)
        self.prepared = {name: kernel.prepare(config, device) for name, kernel in ACTIVATIONS.items()}

    def epilogue(self, layer: int) -> Callable[..., None]:
        name = self.cfg.activation_of(layer)
        return functools.partial(ACTIVATIONS[name].launch, self.prepared[self.cfg.activation])

    def __call__(self, x: np.ndarray) -> np.ndarray:
        s = self.stream
        for layer, (w, bias) in enumerate(zip(self.weights, self.biases)):
            pre = sk.to_device(np.ascontiguousarray(x @ w, dtype=np.float32).ravel(), s)
            out = sk.zeros(len(pre), f32, s)
            self.epilogue(layer)(s, pre, bias, out)
            x = out.to_numpy(s).reshape(x.shape[0], w.shape[1])
        return x


def reference(model: MLP, x: np.ndarray, stream: sk.Stream) -> np.ndarray:
    acts = {
        "relu": lambda v: np.maximum(v, 0.0),
        "gelu": lambda v: 0.5 * v * (1 + np.tanh(SQRT_2_OVER_PI * (v + 0.044715 * v**3))),
        "silu": lambda v: v / (1 + np.exp(-v)),
    }
    for layer, (w, bias) in enumerate(zip(model.weights, model.biases)):
        x = acts[model.cfg.activation_of(layer)](x @ w + bias.to_numpy(stream))
    return x


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = MLPConfig(widths=(16, 32, 32, 8), overrides={1: "gelu", 2: "silu"})
    model = MLP(cfg, dev, stream)
    x = np.random.default_rng(5).standard_normal((cfg.batch, cfg.widths[0])).astype(np.float32)
    y = model(x)
    err = float(np.abs(y - reference(model, x, stream)).max())
    print(f"output {y.shape}, max |err| vs numpy {err:.2e}")
    assert err < 1e-4


if __name__ == "__main__":
    main()
