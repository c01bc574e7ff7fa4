# fresh-expect: E0382 at line 59
# fresh-known-miss: cli,mypy closures a method registers per enum member in self.handlers, called as self.handlers[g](...): the handlers' launches reading a cached property holding a plain op are not followed
# fresh-note: Matches mosaic tesserae per glaze through closures registered in a dict; the palette is a @cached_property holding a plain (not .shared()) DeviceOp, so the first handler's launch consumes it and the second handler passes the same moved op again.
"""Mosaic restoration: match replacement tesserae to the original palette, weighting by glaze finish."""
from __future__ import annotations
import enum
from functools import cached_property
from typing import Callable, NamedTuple

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SAMPLES = 128  # colour samples per tray (L*a*b* lightness channel only)
TILE = 32


class Glaze(enum.Enum):
    MATTE = "matte"
    SMALTI = "smalti"
    GOLD_LEAF = "gold"


GLAZE_WEIGHT = {Glaze.MATTE: 1.0, Glaze.SMALTI: 0.8, Glaze.GOLD_LEAF: 0.35}


@tile.kernel
def colour_distance(out: Partition[f32], tesserae: Tensor[f32], palette: Tensor[f32], weight: f32) -> None:
    d = tile.load_like(tesserae, out) - tile.load_like(palette, out)
    out.store(d * d * weight)


class Match(NamedTuple):
    glaze: Glaze
    best_sample: int
    mean_error: float


class MosaicMatcher:
    def __init__(self, palette: np.ndarray, stream: sk.Stream) -> None:
        self._palette_np = palette.astype(np.float32)
        self.stream = stream
        self.handlers: dict[Glaze, Callable[[np.ndarray], np.ndarray]] = {}
        for glaze in Glaze:
            self.handlers[glaze] = self._make_handler(glaze)

    @cached_property
    def palette(self) -> sk.DeviceOp:
        # uploaded once, on first use
        return tile.from_numpy(self._palette_np)

    def _make_handler(self, glaze: Glaze) -> Callable[[np.ndarray], np.ndarray]:
        weight = GLAZE_WEIGHT[glaze]

        def handler(tray: np.ndarray) -> np.ndarray:
            out = tile.zeros((SAMPLES,), f32).partition((TILE,))
            out, _, _, _ = colour_distance(out, tile.from_numpy(tray), self.palette, weight).sync_on(self.stream)
            return out.unpartition().to_numpy(self.stream)

        return handler

    def match(self, glaze: Glaze, tray: np.ndarray) -> Match:
        err = self.handlers[glaze](tray.astype(np.float32))
        return Match(glaze, int(err.argmin()), float(err.mean()))


def trays(rng: np.random.Generator, palette: np.ndarray) -> dict[Glaze, np.ndarray]:
    return {g: palette + rng.normal(0.0, 4.0 + 2.0 * k, palette.size) for k, g in enumerate(Glaze)}


def main() -> None:
    rng = np.random.default_rng(21)
    palette = 55.0 + 20.0 * np.sin(np.linspace(0, 3 * np.pi, SAMPLES))
    matcher = MosaicMatcher(palette, sk.Device.default().new_stream())
    results = [matcher.match(glaze, tray) for glaze, tray in trays(rng, palette).items()]
    for m in sorted(results, key=lambda r: r.mean_error):
        print(f"{m.glaze.value:6s} best sample {m.best_sample:3d}, mean weighted error {m.mean_error:7.2f}")


if __name__ == "__main__":
    main()
