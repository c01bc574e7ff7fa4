# fresh-expect: E0502 at line 96
# fresh-note: Progressive SIMT renderer whose frozen settings choose REUSE_ACCUMULATION, so the resolve_target property returns self.front, which after an even number of ping-pong swaps is also the accumulation input of resolve (E0502).
"""Progressive SIMT sphere renderer: jittered samples accumulate into a ping-pong framebuffer, then a resolve
pass averages them into the displayed colour buffer (optionally reusing an accumulation buffer to save memory)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

WIDTH, HEIGHT = 32, 24


@simt.kernel
@simt.launch_contract(block=64, requires=("len(accum_in) >= len(accum_out)",))
def trace(width: u32, cx: f32, cy: f32, radius: f32, jitter: f32, accum_in: Slice[f32], accum_out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    x = f32(i % width) + jitter
    y = f32(i // width) + jitter
    dx = x - cx
    dy = y - cy
    d2 = dx * dx + dy * dy
    r2 = radius * radius
    hit = f32(0.0)
    if d2 < r2:
        hit = f32(1.0) - d2 / r2
    if (o := accum_out.get_mut(idx)) is not None:
        o.set(accum_in[i] + hit)


@simt.kernel
@simt.launch_contract(block=64)
def resolve(accum: Slice[f32], color: DisjointSlice[f32], inv_samples: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := color.get_mut(idx)) is not None:
        o.set(min(accum[i] * inv_samples, f32(1.0)))


class ResolveMode(enum.Enum):
    SEPARATE = "separate"
    REUSE_ACCUMULATION = "reuse"


@dataclass(frozen=True)
class RenderSettings:
    samples: int = 4
    radius: float = 9.0
    resolve: ResolveMode = ResolveMode.SEPARATE

    @property
    def jitters(self) -> list[float]:
        return [(k + 0.5) / self.samples for k in range(self.samples)]


class Framebuffer:
    def __init__(self, settings: RenderSettings, device: sk.Device) -> None:
        self.settings = settings
        self.device = device
        self.stream = device.new_stream()
        n = WIDTH * HEIGHT
        self.front = sk.zeros(n, f32, self.stream)
        self.back = sk.zeros(n, f32, self.stream)
        self._color = None if settings.resolve is ResolveMode.REUSE_ACCUMULATION else sk.zeros(n, f32, self.stream)
        cfg = simt.LaunchConfig1D.for_len(n, block=64)
        self.trace_prep = trace.prepare(cfg, device)
        self.resolve_prep = resolve.prepare(cfg, device)

    @property
    def resolve_target(self) -> sk.DeviceBuffer:
        if self._color is None:
            return self.front  # "in place": the accumulation buffer becomes the image
        return self._color

    def swap(self) -> None:
        self.front, self.back = self.back, self.front

    def accumulate(self, cx: float, cy: float) -> int:
        count = 0
        for jitter in self.settings.jitters:
            trace.launch(self.trace_prep, self.stream, WIDTH, cx, cy, self.settings.radius, jitter, self.front, self.back)
            self.swap()
            count += 1
        return count

    def present(self, samples: int) -> np.ndarray:
        inv = 1.0 / samples
        resolve.launch(self.resolve_prep, self.stream, self.front, self.resolve_target, inv)
        return self.resolve_target.to_numpy(self.stream).reshape(HEIGHT, WIDTH)


def main() -> None:
    settings = RenderSettings(samples=4, resolve=ResolveMode.REUSE_ACCUMULATION)
    fb = Framebuffer(settings, sk.Device.default())
    taken = fb.accumulate(WIDTH / 2, HEIGHT / 2)
    image = fb.present(taken)
    coverage = float((image > 0).mean())
    assert 0.0 < coverage < 1.0, coverage
    print(f"rendered {WIDTH}x{HEIGHT} with {taken} samples, coverage {coverage:.2f}, peak {image.max():.3f}")


if __name__ == "__main__":
    main()
