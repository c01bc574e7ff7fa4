# fresh-expect: E0133 at line 60
# fresh-note: Renders calligraphy strokes with a launch_unchecked fast path for long strokes; render() opens `with simt.unsafe():` but the unchecked launch sits in the helper _dispatch, which a caller's unsafe block does not cover (unsafe is lexical).
"""Calligraphy: turn stylus pressure samples into brush-stroke ink width, with a fast path for long strokes."""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def ink_width(pressure: Slice[f32], speed: Slice[f32], width: DisjointSlice[f32], bristle: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := width.get_mut(idx)) is not None:
        # a fast stroke starves the brush: width falls with speed
        o.set(bristle * pressure[i] / (1.0 + 0.4 * speed[i]))


@dataclass
class Stroke:
    glyph: str
    pressure: np.ndarray
    speed: np.ndarray
    widths: list[float] = field(default_factory=list)

    def __len__(self) -> int:
        return self.pressure.size


class BrushEngine:
    """Uploads strokes and runs the width kernel; long strokes skip re-validation."""

    FAST_PATH_MIN = 512

    def __init__(self, dev: sk.Device, bristle: float) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.bristle = bristle

    @contextlib.contextmanager
    def uploaded(self, stroke: Stroke) -> Iterator[tuple[sk.DeviceBuffer, sk.DeviceBuffer, sk.DeviceBuffer]]:
        p = sk.to_device(stroke.pressure.astype(np.float32), self.stream)
        v = sk.to_device(stroke.speed.astype(np.float32), self.stream)
        w = sk.zeros(len(stroke), f32, self.stream)
        yield p, v, w
        stroke.widths = w.to_numpy(self.stream).tolist()

    def _dispatch(self, n: int, p: sk.DeviceBuffer, v: sk.DeviceBuffer, w: sk.DeviceBuffer) -> None:
        cfg = simt.LaunchConfig1D.for_len(n, block=BLOCK)
        ink_width.launch_unchecked(cfg, self.stream, p, v, w, self.bristle)

    def render(self, stroke: Stroke) -> Stroke:
        with self.uploaded(stroke) as (p, v, w):
            if len(stroke) >= self.FAST_PATH_MIN:
                # sizes come straight from the upload above, so skipping prepare() is safe here
                with simt.unsafe():
                    self._dispatch(len(stroke), p, v, w)
            else:
                prepared = ink_width.prepare(simt.LaunchConfig1D.for_len(len(stroke), block=BLOCK), self.dev)
                ink_width.launch(prepared, self.stream, p, v, w, self.bristle)
        return stroke


def sample_stroke(glyph: str, n: int, seed: int) -> Stroke:
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 1.0, n)
    pressure = np.clip(np.sin(np.pi * t) + rng.normal(0, 0.03, n), 0.0, None)
    speed = 2.0 + 3.0 * np.abs(np.cos(2 * np.pi * t))
    return Stroke(glyph, pressure, speed)


def main() -> None:
    engine = BrushEngine(sk.Device.default(), bristle=6.0)
    strokes = [sample_stroke("永 dot", 96, 1), sample_stroke("永 hook", 300, 2), sample_stroke("永 sweep", 640, 3)]
    for stroke in strokes:
        engine.render(stroke)
        widths = np.asarray(stroke.widths)
        print(f"{stroke.glyph:10s} {len(stroke):4d} samples, widest {widths.max():.2f} mm, mean {widths.mean():.2f} mm")


if __name__ == "__main__":
    main()
