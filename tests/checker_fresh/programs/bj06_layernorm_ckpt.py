# fresh-expect: clean
# fresh-note: A small Layer hierarchy runs LayerNorm and a bias layer through tile kernels and then saves a checkpoint; `params` is a plain property rebuilt from the attributes that `forward` rebinds after `sync_on` (only the key names are cached), so `state_dict` reads the live handles.
"""Forward pass of a norm -> bias stack with tile kernels, followed by a checkpoint to numpy.

Layers follow a tiny nn.Module-like protocol: `forward`, a `params` mapping and `state_dict`.
Every tile launch takes ownership of its tensors and hands fresh handles back from `sync_on`,
which the layers store back onto themselves.
"""

from __future__ import annotations

import functools
from typing import Annotated, Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ROWS = 4
DIM = 64


@tile.kernel
def layernorm(out: Annotated[Partition[f32], tile.Dims(ROWS, DIM)], x: Tensor[f32], w: Tensor[f32],
              b: Tensor[f32], eps: f32) -> None:
    t = tile.load_like(x, out)
    mu = tile.sum(t, axis=1, keepdims=True) / DIM
    xc = t - mu
    var = tile.sum(xc * xc, axis=1, keepdims=True) / DIM
    out.store(xc * tile.rsqrt(var + eps) * w.load((0,), (DIM,)) + b.load((0,), (DIM,)))


@tile.kernel
def add_bias(out: Annotated[Partition[f32], tile.Dims(ROWS, DIM)], x: Tensor[f32], b: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) + b.load((0,), (DIM,)))


class Layer:
    def __init__(self, name: str) -> None:
        self.name = name
        self.calls = 0

    @property
    def params(self) -> dict[str, Tensor[f32]]:
        return {}

    def forward(self, x: Tensor[f32], stream: sk.Stream) -> Tensor[f32]:
        raise NotImplementedError

    def __call__(self, x: Tensor[f32], stream: sk.Stream) -> Tensor[f32]:
        self.calls += 1
        return self.forward(x, stream)

    def state_dict(self, stream: sk.Stream) -> dict[str, np.ndarray]:
        return {f"{self.name}.{key}": value.to_numpy(stream) for key, value in self.params.items()}


class LayerNorm(Layer):
    def __init__(self, name: str, stream: sk.Stream, eps: float = 1e-5) -> None:
        super().__init__(name)
        self.eps = eps
        self.gamma = tile.full((DIM,), 1.5, f32).sync_on(stream)
        self.beta = tile.full((DIM,), 0.25, f32).sync_on(stream)

    @functools.cached_property
    def param_names(self) -> tuple[str, ...]:
        return ("gamma", "beta")

    @property
    def params(self) -> dict[str, Tensor[f32]]:
        return dict(zip(self.param_names, (self.gamma, self.beta)))

    def forward(self, x: Tensor[f32], stream: sk.Stream) -> Tensor[f32]:
        out = tile.zeros(x.shape, f32).partition((ROWS, DIM))
        out, _x, self.gamma, self.beta, _eps = layernorm(out, x, self.gamma, self.beta, self.eps).sync_on(stream)
        return out.unpartition()


class Bias(Layer):
    def __init__(self, name: str, stream: sk.Stream, init: np.ndarray) -> None:
        super().__init__(name)
        self.bias = tile.from_numpy(init).sync_on(stream)

    @property
    def params(self) -> dict[str, Tensor[f32]]:
        return {"bias": self.bias}

    def forward(self, x: Tensor[f32], stream: sk.Stream) -> Tensor[f32]:
        out = tile.zeros(x.shape, f32).partition((ROWS, DIM))
        out, _x, self.bias = add_bias(out, x, self.bias).sync_on(stream)
        return out.unpartition()


class Sequential:
    def __init__(self, *layers: Layer) -> None:
        self.layers = list(layers)

    def __iter__(self) -> Iterator[Layer]:
        return iter(self.layers)

    def __call__(self, x: Tensor[f32], stream: sk.Stream) -> Tensor[f32]:
        for layer in self:
            x = layer(x, stream)
        return x

    def num_params(self) -> int:
        return sum(int(np.prod(p.shape)) for layer in self for p in layer.params.values())

    def state_dict(self, stream: sk.Stream) -> dict[str, np.ndarray]:
        state: dict[str, np.ndarray] = {}
        for layer in self:
            state.update(layer.state_dict(stream))
        return state


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(3)
    model = Sequential(
        LayerNorm("ln0", stream),
        Bias("bias0", stream, rng.standard_normal(DIM).astype(np.float32)),
    )
    print(f"model has {model.num_params()} parameters")

    batches = [rng.standard_normal((8, DIM)).astype(np.float32) * (i + 1) for i in range(3)]
    for step, batch in enumerate(batches):
        y = model(tile.from_numpy(batch).sync_on(stream), stream)
        host = y.to_numpy(stream)
        print(f"step {step}: mean {host.mean():+.4f} std {host.std():.4f}")

    ckpt = model.state_dict(stream)
    for key, value in sorted(ckpt.items()):
        print(f"{key}: shape {value.shape}, first {value[0]:+.3f}")


if __name__ == "__main__":
    main()
