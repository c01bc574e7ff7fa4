# fresh-expect: E0382 at line 45
# bug: BiasLayer.forward discards the bias handed back by sync_on (`_`), so the second batch launches with the moved `self.bias`
"""Streaming inference for a tiny bias+scale layer over batches from a generator.

Batches come from `batches()` as lazy device ops; `BiasLayer` keeps its bias tensor on the device and applies
`y = scale * x + bias` to each batch with a tile kernel, collecting the row sums for a quick summary.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

WIDTH = 64
TILE = 32


@tile.kernel
def affine(out: Partition[f32], x: Tensor[f32], bias: Tensor[f32], scale: f32) -> None:
    out.store(tile.load_like(x, out) * scale + tile.load_like(bias, out))


def batches(count: int, seed: int = 3) -> Iterator[tuple[int, Any]]:
    rng = np.random.default_rng(seed)
    for k in range(count):
        yield k, tile.from_numpy(rng.standard_normal(WIDTH).astype(np.float32))


class BiasLayer:
    def __init__(self, bias: np.ndarray, scale: float, stream: sk.Stream) -> None:
        self.stream = stream
        self.scale = scale
        self.bias = tile.from_numpy(bias).sync_on(stream)
        self.calls = 0

    def forward(self, x: Any) -> np.ndarray:
        out = tile.zeros((WIDTH,), f32).partition((TILE,))
        out, x, _, _ = affine(out, x, self.bias, self.scale).sync_on(self.stream)
        self.calls += 1
        return out.unpartition().to_numpy(self.stream)


def main() -> None:
    stream = sk.Device.default().new_stream()
    layer = BiasLayer(np.linspace(-1, 1, WIDTH, dtype=np.float32), 0.5, stream)
    sums: dict[int, float] = {}
    for k, x in batches(3):
        y = layer.forward(x)
        sums[k] = float(y.sum())
    print(f"{layer.calls} batches:", {k: round(v, 3) for k, v in sums.items()})


if __name__ == "__main__":
    main()
