# fresh-expect: clean
# fresh-note: Paints two Ndebele wall panels with two tile launches zipped by sk.zip and retries with more coats on ThinPaint; the plaster and pigment handed back by sync_on are rebound onto the Wall objects before the opacity check, so the retry uses live values.
"""Ndebele homestead murals: paints the inner and outer wall panels together, adding coats while the paint is thin."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CELLS = 512
TILE = 128


@tile.kernel
def coat(paint: Partition[f32], wall: Tensor[f32], pigment: Tensor[f32], coats: f32) -> None:
    w = tile.load_like(wall, paint)
    p = tile.load_like(pigment, paint)
    paint.store(tile.minimum(w * p * coats, 1.0))


class ThinPaint(Exception):
    def __init__(self, opacity: float) -> None:
        super().__init__(f"opacity {opacity:.1%} lets the lime wash through")
        self.opacity = opacity


@dataclass
class Wall:
    side: str
    plaster: sk.DeviceOp
    pigment: sk.DeviceOp


class Painter:
    def __init__(self, device: sk.Device, target: float = 0.8, max_coats: int = 4) -> None:
        self.stream = device.new_stream()
        self.target = target
        self.max_coats = max_coats
        self.sessions = 0
        self.notes: list[str] = []

    def _opacity(self, paint: Partition) -> float:
        return float(paint.unpartition().to_numpy(self.stream).mean())

    def _fresh(self) -> sk.DeviceOp:
        return tile.zeros((CELLS,), f32).partition((TILE,))

    def paint_homestead(self, inner: Wall, outer: Wall) -> tuple[float, float]:
        coats = 1.0
        while coats <= self.max_coats:
            try:
                both = sk.zip(
                    coat(self._fresh(), inner.plaster, inner.pigment, coats),
                    coat(self._fresh(), outer.plaster, outer.pigment, coats),
                )
                (in_paint, inner.plaster, inner.pigment, _), (out_paint, outer.plaster, outer.pigment, _) = (
                    both.sync_on(self.stream)
                )
                opacity = (self._opacity(in_paint), self._opacity(out_paint))
                if min(opacity) < self.target:
                    raise ThinPaint(min(opacity))
            except ThinPaint as thin:
                self.notes.append(f"{coats:.0f} coat(s): {thin}")
                coats += 1.0
            else:
                return opacity
            finally:
                self.sessions += 1
        raise RuntimeError("the wall will not take the pigment")


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(97)
    painter = Painter(device)

    def wall(side: str) -> Wall:
        plaster = tile.from_numpy(rng.uniform(0.5, 0.8, CELLS).astype(np.float32))
        return Wall(side, plaster, tile.from_numpy(rng.uniform(0.4, 0.9, CELLS).astype(np.float32)))

    inner, outer = wall("inner"), wall("outer")
    opacity = painter.paint_homestead(inner, outer)
    print("\n".join(painter.notes))
    print(f"inner {opacity[0]:.1%}, outer {opacity[1]:.1%} after {painter.sessions} session(s)")


if __name__ == "__main__":
    main()
