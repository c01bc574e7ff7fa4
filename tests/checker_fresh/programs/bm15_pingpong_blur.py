# fresh-expect: E0382 at line 53
# fresh-known-miss: cli,mypy E0382 is reported where the moved `self.a` is bound to `self.b` (rustc's rule: binding a moved value is a use), not at the next pass's `self.b.partition` where the runtime raises
# fresh-known-false-alarm: cli,mypy E0382 at 55: the binding `self.a, self.b = out.unpartition(), self.a` of the moved `self.a` (see the miss)
# fresh-note: Tile ping-pong blur whose step() discards the source tensor handed back by sync_on and recycles the moved self.a handle as the next scratch buffer, so the second pass partitions a moved tensor (E0382).
"""Iterated cross-shaped blur in the tile track: two full-size images play ping-pong, each pass reading one with
`tile.gather` (out-of-range taps read zero) and writing the other through a partition."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

TH, TW = 4, 8


@tile.kernel
def cross_blur(out: Partition[f32], src: Tensor[f32], center_weight: f32) -> None:
    rows = tile.reshape(tile.iota(TH, i32) + tile.bid(0) * TH, (TH, 1))
    cols = tile.reshape(tile.iota(TW, i32) + tile.bid(1) * TW, (1, TW))
    center = tile.gather(src, (rows, cols))
    around = tile.gather(src, (rows, cols - 1)) + tile.gather(src, (rows, cols + 1))
    around = around + tile.gather(src, (rows - 1, cols)) + tile.gather(src, (rows + 1, cols))
    side = (1.0 - center_weight) * 0.25
    out.store(center * center_weight + around * side)


@dataclass(frozen=True)
class BlurSchedule:
    passes: int = 3
    center_weight: float = 0.4

    def weights(self) -> Iterator[float]:
        for k in range(self.passes):
            yield self.center_weight if k % 2 == 0 else 1.0 - self.center_weight


class PingPongBlur:
    def __init__(self, image: np.ndarray, stream: sk.Stream) -> None:
        self.stream = stream
        self.shape = image.shape
        # the current image and the scratch for the next pass, created in one chain
        self.a, self.b = sk.zip(tile.from_numpy(image.astype(np.float32)), tile.zeros(image.shape, f32)).sync_on(stream)
        self.passes_run = 0

    def step(self, center_weight: float) -> None:
        out = self.b.partition((TH, TW))
        out, _, _ = cross_blur(out, self.a, center_weight).sync_on(self.stream)
        self.a, self.b = out.unpartition(), self.a
        self.passes_run += 1

    def run(self, schedule: BlurSchedule) -> "PingPongBlur":
        for weight in schedule.weights():
            self.step(weight)
        return self

    @property
    def result(self) -> np.ndarray:
        return self.a.to_numpy(self.stream)


def energy(image: np.ndarray) -> float:
    return float(np.abs(np.diff(image, axis=0)).sum() + np.abs(np.diff(image, axis=1)).sum())


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(11)
    image = (rng.random((16, 32)) > 0.7).astype(np.float32)
    blurred = PingPongBlur(image, stream).run(BlurSchedule(passes=3))
    result = blurred.result
    assert energy(result) < energy(image)
    print(f"{blurred.passes_run} blur passes: edge energy {energy(image):.1f} -> {energy(result):.1f}")


if __name__ == "__main__":
    main()
