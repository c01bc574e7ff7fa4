"""A `@property` whose getter moves a field (`self.fiber.unpartition()`) runs when it is read, also on an object
whose class the checker does not know (a name a loop rebinds to a helper's result): the one class of the module
defining that property answers the read, as a method call on such an object dispatches by name. The next step's
launch then uses the moved field, E0382."""

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
        return float(self.fiber.unpartition().to_numpy(self.stream).mean())


def step(batch: Batch, rate: float) -> Batch:
    fiber, _ = soak(batch.fiber, rate).sync_on(batch.stream)  # expect: E0382
    return replace(batch, fiber=fiber)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    batch = Batch(stream, tile.ones((64,), f32).partition((16,)).sync_on(stream))
    for rate in (0.5, 0.9):
        batch = step(batch, rate)
        print(batch.shade)


if __name__ == "__main__":
    main()
