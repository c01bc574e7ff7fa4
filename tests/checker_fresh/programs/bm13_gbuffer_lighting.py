# fresh-expect: E0133 at line 91
# fresh-note: Deferred G-buffer lighting whose fast path wraps the call of the _dispatch_unchecked helper in `with simt.unsafe():`, but the helper's own launch_unchecked is outside any lexical unsafe block (E0133).
"""Deferred shading in the SIMT track: a G-buffer (normals and albedo) is lit by a list of lights, one launch per
light accumulating into ping-pong radiance buffers; frames whose size is a multiple of the block take an
unchecked fast path."""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Iterator, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def shade(nx: Slice[f32], ny: Slice[f32], nz: Slice[f32], albedo: Slice[f32], acc_in: Slice[f32], acc_out: DisjointSlice[f32], lx: f32, ly: f32, lz: f32, intensity: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := acc_out.get_mut(idx)) is not None:
        ndotl = max(nx[i] * lx + ny[i] * ly + nz[i] * lz, f32(0.0))
        o.set(acc_in[i] + albedo[i] * ndotl * intensity)


class LightKind(enum.Enum):
    DIRECTIONAL = 1
    AMBIENT = 2


class Light(NamedTuple):
    kind: LightKind
    direction: tuple[float, float, float]
    intensity: float


@dataclass
class GBuffer:
    nx: sk.DeviceBuffer
    ny: sk.DeviceBuffer
    nz: sk.DeviceBuffer
    albedo: sk.DeviceBuffer

    def __iter__(self) -> Iterator[sk.DeviceBuffer]:
        yield from (self.nx, self.ny, self.nz, self.albedo)

    @classmethod
    def sphere(cls, side: int, stream: sk.Stream) -> "GBuffer":
        ys, xs = np.mgrid[-1:1:side * 1j, -1:1:side * 1j]
        zs = np.sqrt(np.clip(1.0 - xs * xs - ys * ys, 0.0, 1.0))
        inside = (xs * xs + ys * ys) <= 1.0
        channels = [np.where(inside, c, 0.0) for c in (xs, ys, zs)] + [inside * 0.8]
        return cls(*(sk.to_device(c.reshape(-1).astype(np.float32), stream) for c in channels))


def light_vector(light: Light) -> tuple[float, float, float]:
    match light.kind:
        case LightKind.DIRECTIONAL:
            x, y, z = light.direction
            norm = math.sqrt(x * x + y * y + z * z)
            return (x / norm, y / norm, z / norm)
        case LightKind.AMBIENT:
            return (0.0, 0.0, 1.0)
    raise ValueError(light.kind)


class DeferredRenderer:
    def __init__(self, side: int, device: sk.Device) -> None:
        self.n = side * side
        self.stream = device.new_stream()
        self.gbuffer = GBuffer.sphere(side, self.stream)
        self.radiance = [sk.zeros(self.n, f32, self.stream) for _ in range(2)]
        self.config = simt.LaunchConfig1D.for_len(self.n, block=BLOCK)
        self.prepared = shade.prepare(self.config, device)
        self.fast_path = self.n % BLOCK == 0

    def _dispatch_checked(self, light: Light) -> None:
        src, dst = self.radiance
        shade.launch(self.prepared, self.stream, *self.gbuffer, src, dst, *light_vector(light), light.intensity)

    def _dispatch_unchecked(self, light: Light) -> None:
        src, dst = self.radiance
        shade.launch_unchecked(self.config, self.stream, *self.gbuffer, src, dst, *light_vector(light), light.intensity)

    def render(self, lights: list[Light]) -> np.ndarray:
        for light in lights:
            if light.intensity == 0.0:
                continue
            if self.fast_path:
                with simt.unsafe():  # the grid covers the frame exactly: no contract check needed
                    self._dispatch_unchecked(light)
            else:
                self._dispatch_checked(light)
            self.radiance.reverse()
        return self.radiance[0].to_numpy(self.stream)


def main() -> None:
    lights = [Light(LightKind.AMBIENT, (0.0, 0.0, 0.0), 0.1), Light(LightKind.DIRECTIONAL, (1.0, 1.0, 2.0), 0.9), Light(LightKind.DIRECTIONAL, (0.0, 0.0, 1.0), 0.0)]
    renderer = DeferredRenderer(32, sk.Device.default())
    image = renderer.render(lights)
    assert image.max() <= 0.8 + 1e-5 and image.min() >= 0.0
    print(f"lit {renderer.n} pixels (fast path: {renderer.fast_path}), peak radiance {image.max():.3f}")


if __name__ == "__main__":
    main()
