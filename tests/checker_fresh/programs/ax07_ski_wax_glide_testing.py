# fresh-expect: W0003 at line 58
# fresh-note: Scores ski waxes against a cached reference run; GlideTest.reference() builds the reference glide op through __call__ before checking its cache, so on a cache hit the op is dropped without ever being run.
"""Ski-wax glide tests: compare the glide of waxed test skis against a reference pair on different snow."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

RUN_SAMPLES = 256


class Snow(enum.Enum):
    NEW = "new"
    TRANSFORMED = "transformed"
    ARTIFICIAL = "artificial"


@dataclass(frozen=True)
class Wax:
    name: str
    hydrophobia: float
    hardness: float


@tile.kernel
def glide(out: Partition[f32], speed: Tensor[f32], drag: Tensor[f32], mu: f32) -> None:
    v = tile.load_like(speed, out)
    d = tile.load_like(drag, out)
    out.store(v - (d * mu + v * v * 0.0004))


SNOW_FRICTION: dict[Snow, Callable[[Wax], float]] = {
    Snow.NEW: lambda wax: 0.045 - 0.01 * wax.hydrophobia,
    Snow.TRANSFORMED: lambda wax: 0.035 - 0.004 * wax.hardness,
    Snow.ARTIFICIAL: lambda wax: 0.05 - 0.012 * wax.hardness,
}


class GlideTest:
    """Callable: builds the (lazy) glide computation of one timed run."""

    def __init__(self, stream: sk.Stream, seed: int = 11) -> None:
        self.stream = stream
        self.rng = np.random.default_rng(seed)
        self._reference: dict[Snow, float] = {}

    def __call__(self, snow: Snow, wax: Wax) -> sk.DeviceOp:
        speed = tile.from_numpy(self.rng.uniform(8.0, 14.0, RUN_SAMPLES).astype(np.float32))
        drag = tile.from_numpy(self.rng.uniform(0.8, 1.2, RUN_SAMPLES).astype(np.float32))
        out = tile.zeros((RUN_SAMPLES,), f32).partition((64,))
        return glide(out, speed, drag, SNOW_FRICTION[snow](wax))

    def reference(self, snow: Snow) -> float:
        op = self(snow, Wax("reference", 0.5, 0.5))
        if snow in self._reference:
            return self._reference[snow]
        out, _, _, _ = op.sync_on(self.stream)
        self._reference[snow] = float(out.unpartition().to_numpy(self.stream).mean())
        return self._reference[snow]

    def score(self, snow: Snow, wax: Wax) -> float:
        out, _, _, _ = self(snow, wax).sync_on(self.stream)
        return float(out.unpartition().to_numpy(self.stream).mean()) - self.reference(snow)


def rank(test: GlideTest, snow: Snow, waxes: list[Wax]) -> list[tuple[str, float]]:
    scored = [(wax.name, test.score(snow, wax)) for wax in waxes]
    return sorted(scored, key=lambda item: item[1], reverse=True)


def main() -> None:
    test = GlideTest(sk.Device.default().new_stream())
    waxes = [Wax("fluoro-free LF", 0.6, 0.4), Wax("graphite cold", 0.4, 0.9), Wax("paraffin warm", 0.3, 0.2)]
    for snow in (Snow.NEW, Snow.ARTIFICIAL):
        for name, delta in rank(test, snow, waxes):
            print(f"{snow.value:11s} {name:16s} {delta:+.4f} m/s vs reference")


if __name__ == "__main__":
    main()
