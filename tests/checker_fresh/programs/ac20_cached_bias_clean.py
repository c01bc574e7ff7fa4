# fresh-expect: clean
# idiom: functools.cached_property materializing a device tensor once per layer
"""A dense layer's bias-add for a small multi-step decoder.

The bias lives on the host until first use; `cached_property` uploads it once and keeps the
device tensor on the layer, so every decoding step reuses it.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

HIDDEN = 384
TILE = 128
STEPS = 3


@tile.kernel
def bias_add(z: Partition[f32], x: Tensor[f32], b: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(b, z))


class BiasLayer:
    def __init__(self, name: str, bias: np.ndarray, stream: sk.Stream) -> None:
        self.name = name
        self._host_bias = bias
        self.stream = stream
        self.calls = 0

    @cached_property
    def bias(self) -> tile.Tensor:
        print(f"[{self.name}] uploading bias")
        return tile.from_numpy(self._host_bias).sync_on(self.stream)

    def __call__(self, x: tile.Tensor) -> tile.Tensor:
        out = tile.zeros((HIDDEN,), f32).sync_on(self.stream).partition((TILE,))
        out, x, self.bias = bias_add(out, x, self.bias).sync_on(self.stream)
        self.calls += 1
        return out.unpartition()


def decode(layer: BiasLayer, start: np.ndarray, stream: sk.Stream) -> list[float]:
    state = tile.from_numpy(start).sync_on(stream)
    trace = []
    for _ in range(STEPS):
        state = layer(state)
        trace.append(float(state.to_numpy(stream).sum()))
    return trace


def main() -> None:
    stream = sk.Device.default().new_stream()
    bias = np.full(HIDDEN, 0.5, np.float32)
    layer = BiasLayer("proj", bias, stream)
    trace = decode(layer, np.zeros(HIDDEN, np.float32), stream)
    for i, total in enumerate(trace):
        print(f"step {i}: sum {total:.1f}")
    print(f"{layer.name} called {layer.calls} times")


if __name__ == "__main__":
    main()
