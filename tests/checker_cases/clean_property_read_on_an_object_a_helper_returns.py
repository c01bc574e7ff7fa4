"""The clean twin: the getter reads the field with `to_numpy` (a borrow), so the next step's launch has it."""

from dataclasses import dataclass, replace

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition


@tile.kernel
def soak(fiber: Partition[f32], rate: f32) -> None:
    fiber.store(fiber.load() * rate)


@dataclass(frozen=True)
class Batch:
    stream: sk.Stream
    fiber: Partition[f32]

    @property
    def shade(self) -> float:
        return float(self.fiber.to_numpy(self.stream).mean())


def step(batch: Batch, rate: float) -> Batch:
    fiber, _ = soak(batch.fiber, rate).sync_on(batch.stream)
    return replace(batch, fiber=fiber)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    batch = Batch(stream, tile.ones((64,), f32).partition((16,)).sync_on(stream))
    for rate in (0.5, 0.9):
        batch = step(batch, rate)
        print(batch.shade)


if __name__ == "__main__":
    main()
