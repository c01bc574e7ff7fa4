# fresh-expect: clean
# fresh-note: Clean twin: composite() flushes every queued premultiply op before the tile `over` launches move the layer buffers, so no pending borrow remains.
"""Compositing layers: each layer's colour is premultiplied by its alpha on the SIMT side (queued asynchronously),
then the tile track blends the layers back to front onto a canvas with the `over` operator."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 512
TILE = 64


@simt.kernel
@simt.launch_contract(block=128)
def premultiply(color: Slice[f32], alpha: Slice[f32], opacity: f32, out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(color[i] * alpha[i] * opacity)


@tile.kernel
def over(canvas: Partition[f32], premul: Tensor[f32], alpha: Tensor[f32], opacity: f32) -> None:
    src = tile.load_like(premul, canvas)
    a = tile.load_like(alpha, canvas) * opacity
    canvas.store(src + canvas.load() * (1.0 - a))


@dataclass
class Layer:
    name: str
    color: sk.DeviceBuffer
    alpha: sk.DeviceBuffer
    premul: sk.DeviceBuffer
    opacity: float = 1.0


@dataclass
class Compositor:
    device: sk.Device
    flush_every: int = 4
    layers: list[Layer] = field(default_factory=list)
    pending: list[sk.DeviceOp] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stream = self.device.new_stream()
        self.prep = premultiply.prepare(simt.LaunchConfig1D.for_len(N, block=128), self.device)

    def add_layer(self, name: str, color: np.ndarray, alpha: np.ndarray, opacity: float = 1.0) -> None:
        layer = Layer(name, sk.to_device(color, self.stream), sk.to_device(alpha, self.stream), sk.zeros(N, f32, self.stream), opacity)
        self.layers.append(layer)
        self.pending.append(premultiply.launch_async(self.prep, layer.color, layer.alpha, 1.0, layer.premul))
        self._maybe_flush()

    def flush(self) -> None:
        while self.pending:
            self.pending.pop(0).sync_on(self.stream)

    def _maybe_flush(self) -> None:
        if len(self.pending) >= self.flush_every:
            self.flush()

    def visible(self) -> Iterator[Layer]:
        for layer in self.layers:
            if layer.opacity <= 0.0:
                continue
            yield layer

    def composite(self) -> np.ndarray:
        self.flush()  # every queued premultiply must land before blending
        canvas = tile.zeros((N,), f32).partition((TILE,))
        for layer in self.visible():
            canvas, premul, alpha, _ = over(canvas, layer.premul, layer.alpha, layer.opacity).sync_on(self.stream)
            layer.premul, layer.alpha = premul, alpha
        return canvas.unpartition().to_numpy(self.stream)


def main() -> None:
    ramp = np.linspace(0.0, 1.0, N, dtype=np.float32)
    comp = Compositor(sk.Device.default())
    comp.add_layer("background", np.full(N, 0.2, np.float32), np.ones(N, np.float32))
    comp.add_layer("gradient", ramp, ramp[::-1].copy(), opacity=0.5)
    comp.add_layer("hidden", np.ones(N, np.float32), np.ones(N, np.float32), opacity=0.0)
    image = comp.composite()
    assert image.shape == (N,) and 0.0 <= image.min() and image.max() <= 1.0
    print(f"composited {len(comp.layers)} layers, mean {image.mean():.4f}")


if __name__ == "__main__":
    main()
