"""The error twin: the `@cached_property` gives a plain op (no `.shared()`), the same object at every read, so
the first launch moves it and the second one reading `antenna.gain` uses a moved value: E0382, as the runtime
raises."""

from functools import cached_property
import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


class Antenna:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream

    @cached_property
    def gain(self) -> sk.DeviceOp:
        return tile.from_numpy(np.ones(64, np.float32))

    @property
    def loss(self) -> sk.DeviceOp:
        return tile.from_numpy(np.ones(64, np.float32))


def process(antenna: Antenna) -> None:
    out = tile.zeros((64,), f32).partition((32,))
    out, _ = scale(out, antenna.gain).sync_on(antenna.stream)
    out, _ = scale(out, antenna.gain).sync_on(antenna.stream)  # expect: E0382


if __name__ == "__main__":
    process(Antenna(sk.Device.cpu().new_stream()))
