# fresh-expect: clean
# fresh-note: CheckpointedGELU.forward saves the input handle gelu_fwd hands back at sync_on, so the backward recompute launch reads a live tensor.
"""Activation recomputation: each block keeps only its input and recomputes the pre-activation in backward."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 32
N = 96
C = 0.7978845608  # sqrt(2 / pi)


@tile.function
def gelu_parts(z):
    inner = (z + z * z * z * 0.044715) * C
    return inner, tile.tanh(inner)


@tile.kernel
def gelu_fwd(y: Partition[f32], x: Tensor[f32], w: Tensor[f32]) -> None:
    z = tile.load_like(x, y) * tile.load_like(w, y)
    _inner, t = gelu_parts(z)
    y.store(z * (t + 1.0) * 0.5)


@tile.kernel
def gelu_bwd(dx: Partition[f32], dw: Partition[f32], x: Tensor[f32], w: Tensor[f32], dy: Tensor[f32]) -> None:
    xt = tile.load_like(x, dx)
    wt = tile.load_like(w, dx)
    z = xt * wt
    _inner, t = gelu_parts(z)
    dgelu = (t + 1.0) * 0.5 + z * (1.0 - t * t) * (z * z * 3.0 * 0.044715 + 1.0) * C * 0.5
    dz = tile.load_like(dy, dx) * dgelu
    dx.store(dz * wt)
    dw.store(dz * xt)


@dataclass
class Context:
    saved: tuple[Any, ...] = ()

    def save_for_backward(self, *tensors: Any) -> None:
        self.saved = tensors

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        return self.saved


class Module:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.ctx = Context()

    def __call__(self, x: tile.Tensor) -> tile.Tensor:
        return self.forward(x)

    def forward(self, x: tile.Tensor) -> tile.Tensor:
        raise NotImplementedError


@dataclass
class Grad:
    values: dict[str, np.ndarray] = field(default_factory=dict)


class CheckpointedGELU(Module):
    """y = gelu(x * w); only x is kept for backward."""

    def __init__(self, name: str, w: np.ndarray, stream: sk.Stream) -> None:
        super().__init__(stream)
        self.name = name
        self.w = tile.from_numpy(w).sync_on(stream)

    def forward(self, x: tile.Tensor) -> tile.Tensor:
        y = tile.zeros((N,), f32).partition((TILE,))
        y, x, self.w = gelu_fwd(y, x, self.w).sync_on(self.stream)
        self.ctx.save_for_backward(x)  # activation checkpointing: keep the input, recompute the rest
        return y.unpartition()

    def backward(self, dy: tile.Tensor, grads: Grad) -> tile.Tensor:
        (x,) = self.ctx.saved_tensors
        try:
            dx = tile.zeros((N,), f32).partition((TILE,))
            dw = tile.zeros((N,), f32).partition((TILE,))
            dx, dw, x, self.w, dy = gelu_bwd(dx, dw, x, self.w, dy).sync_on(self.stream)
            grads.values[self.name] = dw.unpartition().to_numpy(self.stream)
            return dx.unpartition()
        finally:
            self.ctx.saved = ()  # free the checkpoint whatever happens


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    blocks = [CheckpointedGELU(f"block{i}", rng.uniform(0.5, 1.5, N).astype(np.float32), stream) for i in range(2)]
    x_host = rng.standard_normal(N).astype(np.float32)
    target = np.maximum(x_host, 0).astype(np.float32)
    for it in range(3):
        h = tile.from_numpy(x_host).sync_on(stream)
        for block in blocks:
            h = block(h)
        out = h.to_numpy(stream)
        dy = tile.from_numpy((out - target) / N).sync_on(stream)
        grads = Grad()
        for block in reversed(blocks):
            dy = block.backward(dy, grads)
        for block in blocks:
            w = block.w.to_numpy(stream) - 2.0 * grads.values[block.name]
            block.w = tile.from_numpy(w.astype(np.float32)).sync_on(stream)
        print(f"iter {it}: loss = {float(0.5 * ((out - target) ** 2).mean()):.5f}")


if __name__ == "__main__":
    main()
