# fresh-expect: E0308 at line 77
# fresh-note: epilogue class registry where GeluEpilogue overrides _launch to call bias_gelu but forgets to set the class attribute kernel, so the inherited __init__ prepares type(self).kernel = bias_relu and the gelu launch at line 77 gets a PreparedLaunch branded for bias_relu.
"""Fused bias + activation epilogues for a model server, chosen per model from a class registry.

Every epilogue is a class; `__init_subclass__` registers it under its activation name, and the base class
prepares the launch for the kernel the class names, once per request width.  Subclasses that need extra
kernel arguments override `_launch`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def bias_relu(x: Slice[f32], bias: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(max(x[i] + bias[i % len(bias)], f32(0.0)))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def bias_gelu(x: Slice[f32], bias: Slice[f32], y: DisjointSlice[f32], cubic: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        v = x[i] + bias[i % len(bias)]
        out.set(0.5 * v * (1.0 + math.tanh(0.7978846 * (v + cubic * v * v * v))))


class Epilogue:
    registry: ClassVar[dict[str, type[Epilogue]]] = {}
    activation: ClassVar[str] = "relu"
    kernel: ClassVar[Any] = bias_relu

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Epilogue.registry[cls.activation] = cls

    def __init__(self, device: sk.Device, width: int) -> None:
        self.width = width
        self.prepared = type(self).kernel.prepare(simt.LaunchConfig1D.for_len(width, block=BLOCK), device)
        self.calls = 0

    @classmethod
    def for_model(cls, activation: str, device: sk.Device, width: int) -> Epilogue:
        chosen = cls.registry.get(activation, Epilogue)
        return chosen(device, width)

    def _launch(self, stream: sk.Stream, x: sk.DeviceBuffer, bias: sk.DeviceBuffer, y: sk.DeviceBuffer) -> None:
        type(self).kernel.launch(self.prepared, stream, x, bias, y)

    def __call__(self, stream: sk.Stream, x: sk.DeviceBuffer, bias: sk.DeviceBuffer, y: sk.DeviceBuffer) -> None:
        self._launch(stream, x, bias, y)
        self.calls += 1


class GeluEpilogue(Epilogue):
    activation = "gelu"
    cubic: ClassVar[float] = 0.044715

    def _launch(self, stream: sk.Stream, x: sk.DeviceBuffer, bias: sk.DeviceBuffer, y: sk.DeviceBuffer) -> None:
        bias_gelu.launch(self.prepared, stream, x, bias, y, self.cubic)


@dataclass
class ModelConfig:
    name: str
    activation: str
    hidden: int


def serve_layer(cfg: ModelConfig, device: sk.Device, batch: np.ndarray) -> np.ndarray:
    stream = device.new_stream()
    epilogue = Epilogue.for_model(cfg.activation, device, batch.size)
    x = sk.to_device(batch.ravel().astype(np.float32), stream)
    bias = sk.to_device(np.linspace(-0.5, 0.5, cfg.hidden, dtype=np.float32), stream)
    y = sk.zeros(batch.size, f32, stream)
    epilogue(stream, x, bias, y)
    return y.to_numpy(stream).reshape(batch.shape)


def main() -> None:
    device = sk.Device.cpu()
    rng = np.random.default_rng(13)
    for cfg in (ModelConfig("tiny-relu", "relu", 32), ModelConfig("tiny-gelu", "gelu", 32)):
        out = serve_layer(cfg, device, rng.standard_normal((4, cfg.hidden)))
        print(f"{cfg.name}: {Epilogue.registry.get(cfg.activation, Epilogue).__name__} mean={out.mean():.4f}")


if __name__ == "__main__":
    main()
