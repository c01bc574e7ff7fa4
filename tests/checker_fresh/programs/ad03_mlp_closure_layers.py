# fresh-expect: E0382 at line 44
# idiom: a closure factory with `nonlocal` state folded by `functools.reduce` (found since the eighteenth session: a closure that escapes is checked as if it had run before)
"""A tiny element-wise "MLP" run over several batches.

Each layer is a closure produced by `make_layer`: it owns its weight and bias tensors on
the device and applies `relu(x * w + b)` with a tile kernel.  The closure keeps the
handles the launch hands back so the parameters stay on the device between batches.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256
TILE = 64
LAYERS = 3
BATCHES = 2

Layer = Callable[[tile.Tensor], tile.Tensor]


@tile.kernel
def affine_relu(out: Partition[f32], x: Tensor[f32], w: Tensor[f32], b: Tensor[f32]) -> None:
    t = tile.load_like(x, out) * tile.load_like(w, out) + tile.load_like(b, out)
    out.store(tile.maximum(t, 0.0))


def make_layer(name: str, weight: np.ndarray, bias: np.ndarray, stream: sk.Stream) -> Layer:
    w = tile.from_numpy(weight).sync_on(stream)
    b = tile.from_numpy(bias).sync_on(stream)
    calls = 0

    def forward(x: tile.Tensor) -> tile.Tensor:
        nonlocal w, b, calls
        out = tile.zeros(x.shape, f32).partition((TILE,))
        res, _, w, _ = affine_relu(out, x, w, b).sync_on(stream)
        calls += 1
        return res.unpartition()

    forward.__name__ = f"{name}.forward"
    forward.__qualname__ = forward.__name__
    return forward


def build(stream: sk.Stream, seed: int = 0) -> list[Layer]:
    rng = np.random.default_rng(seed)
    return [
        make_layer(
            f"fc{k}",
            rng.uniform(0.5, 1.5, N).astype(np.float32),
            rng.uniform(-0.1, 0.1, N).astype(np.float32),
            stream,
        )
        for k in range(LAYERS)
    ]


def main() -> None:
    stream = sk.Device.default().new_stream()
    layers = build(stream)
    rng = np.random.default_rng(1)
    for batch in range(BATCHES):
        x = tile.from_numpy(rng.standard_normal(N).astype(np.float32)).sync_on(stream)
        y = functools.reduce(lambda acc, layer: layer(acc), layers, x)
        host = y.to_numpy(stream)
        print(f"batch {batch}: active {int((host > 0).sum())}/{N}, mean {host.mean():.4f}")


if __name__ == "__main__":
    main()
