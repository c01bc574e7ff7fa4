# fresh-expect: clean
# fresh-note: Clean twin: GammaPass lists GammaMixin before ScreenPass, so the MRO gives `kernel = gamma_correct` (and its block) to the shared __init__ and the prepared launch matches the kernel GammaPass.apply launches.
"""A screen-space post-processing chain in the SIMT track: passes are classes registered by name, each preparing
its kernel once in the shared base __init__, and the chain ping-pongs two frame buffers through them."""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

WIDTH, HEIGHT = 24, 16
PASSES: dict[str, type["ScreenPass"]] = {}


@simt.kernel
@simt.launch_contract(block=64)
def copy_pass(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


@simt.kernel
@simt.launch_contract(block=64)
def vignette(src: Slice[f32], dst: DisjointSlice[f32], width: u32, height: u32, strength: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    dx = f32(i % width) / f32(width) - 0.5
    dy = f32(i // width) / f32(height) - 0.5
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * (1.0 - strength * (dx * dx + dy * dy)))


@simt.kernel
@simt.launch_contract(block=32)
def gamma_correct(src: Slice[f32], dst: DisjointSlice[f32], exponent: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(math.pow(max(src[i], f32(0.0)), exponent))


def register(name: str) -> Callable[[type["ScreenPass"]], type["ScreenPass"]]:
    def wrap(cls: type["ScreenPass"]) -> type["ScreenPass"]:
        PASSES[name] = cls
        return cls
    return wrap


class ScreenPass:
    kernel = copy_pass
    block = 64

    def __init__(self, n: int, device: sk.Device) -> None:
        config = simt.LaunchConfig1D.for_len(n, block=type(self).block)
        self.prepared = type(self).kernel.prepare(config, device)

    def apply(self, stream: sk.Stream, src: sk.DeviceBuffer, dst: sk.DeviceBuffer) -> None:
        copy_pass.launch(self.prepared, stream, src, dst)


class GammaMixin:
    kernel = gamma_correct
    block = 32
    exponent = 1.0 / 2.2


@register("vignette")
class VignettePass(ScreenPass):
    kernel = vignette
    strength = 1.2

    def apply(self, stream: sk.Stream, src: sk.DeviceBuffer, dst: sk.DeviceBuffer) -> None:
        vignette.launch(self.prepared, stream, src, dst, WIDTH, HEIGHT, self.strength)


@register("gamma")
class GammaPass(GammaMixin, ScreenPass):
    def apply(self, stream: sk.Stream, src: sk.DeviceBuffer, dst: sk.DeviceBuffer) -> None:
        gamma_correct.launch(self.prepared, stream, src, dst, self.exponent)


class PostChain:
    def __init__(self, names: list[str], device: sk.Device) -> None:
        self.stream = device.new_stream()
        n = WIDTH * HEIGHT
        self.passes = [PASSES[name](n, device) for name in names]
        self.frames = (sk.zeros(n, f32, self.stream), sk.zeros(n, f32, self.stream))

    def run(self, image: np.ndarray) -> np.ndarray:
        src, dst = self.frames
        src.copy_from_numpy(image.reshape(-1).astype(np.float32))
        for fx in self.passes:
            fx.apply(self.stream, src, dst)
            src, dst = dst, src
        return src.to_numpy(self.stream).reshape(HEIGHT, WIDTH)


def main() -> None:
    linear = np.tile(np.linspace(0.0, 1.0, WIDTH, dtype=np.float32), (HEIGHT, 1))
    chain = PostChain(["vignette", "gamma"], sk.Device.default())
    out = chain.run(linear)
    assert out[HEIGHT // 2, WIDTH // 2] > linear[HEIGHT // 2, WIDTH // 2] * 0.9
    print(f"{len(chain.passes)} passes, centre {out[HEIGHT // 2, WIDTH // 2]:.3f}, corner {out[0, -1]:.3f}")


if __name__ == "__main__":
    main()
