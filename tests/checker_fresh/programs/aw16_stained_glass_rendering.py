# fresh-expect: E0382 at line 61
# fresh-note: A stained-glass window zips all pane ops from self.panes.values() into one render pass, then on glare tries to chain the brightest pane's op from the dict again with then(), an op the zip already consumed.
"""Stained glass window rendering: per-pane tint ops zipped into one pass, with glare reduction on the brightest pane."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

PIXELS = 256
GLARE = 0.6


@tile.kernel
def tint(glass: Partition[f32], daylight: Tensor[f32], transmittance: f32) -> None:
    glass.store(tile.load_like(daylight, glass) * transmittance)


@tile.kernel
def attenuate(glass: Partition[f32], factor: f32) -> None:
    glass.store(glass.load() * factor)


@dataclass(frozen=True)
class Pane:
    name: str
    pigment: str
    transmittance: float


class Window:
    def __init__(self, stream: sk.Stream, hour: float) -> None:
        self.stream = stream
        self.hour = hour
        self.panes: dict[str, sk.DeviceOp] = {}
        self.catalogue: dict[str, Pane] = {}

    def daylight(self) -> np.ndarray:
        sun = max(np.sin((self.hour - 6.0) / 12.0 * np.pi), 0.05)
        ramp = np.linspace(0.7, 1.0, PIXELS, dtype=np.float32)
        return (sun * ramp).astype(np.float32)

    def lead(self, pane: Pane) -> None:
        self.catalogue[pane.name] = pane
        glass = tile.zeros((PIXELS,), f32).partition((64,))
        self.panes[pane.name] = tint(glass, tile.from_numpy(self.daylight()), pane.transmittance)

    def render(self) -> dict[str, float]:
        frames = sk.zip(*self.panes.values()).sync_on(self.stream)
        luminance = {}
        for name, (glass, _light, _t) in zip(self.panes, frames):
            luminance[name] = float(glass.to_numpy(self.stream).mean())
        brightest = max(luminance, key=luminance.get)
        if luminance[brightest] > GLARE:
            factor = GLARE / luminance[brightest]
            dimmed = self.panes[brightest].then(lambda v: attenuate(v[0], factor))
            glass, _ = dimmed.sync_on(self.stream)
            luminance[brightest] = float(glass.to_numpy(self.stream).mean())
        return luminance


def main() -> None:
    stream = sk.Device.default().new_stream()
    panes = [Pane("rose", "selenium red", 0.45), Pane("lancet-left", "cobalt blue", 0.3),
             Pane("lancet-right", "cobalt blue", 0.3), Pane("tracery", "clear", 0.85)]
    for hour in (8.0, 12.5):
        window = Window(stream, hour)
        for pane in panes:
            window.lead(pane)
        lum = window.render()
        print(f"{hour:4.1f}h", {k: round(v, 3) for k, v in lum.items()})


if __name__ == "__main__":
    main()
