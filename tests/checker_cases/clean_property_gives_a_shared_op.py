"""A `@cached_property` (or `@property`) whose every `return` gives a `.shared()` op: reading it gives a shared op
(the cached one, or a new one per read), which launches read and never move, also on an object of a subclass that
inherits the getter.  Two launches reading `antenna.gain` are clean, as at run time."""

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
    def gain(self) -> sk.SharedDeviceOp:
        return tile.from_numpy(np.ones(64, np.float32)).shared()

    @property
    def loss(self) -> sk.SharedDeviceOp:
        return tile.from_numpy(np.ones(64, np.float32)).shared()


class ShieldedAntenna(Antenna):
    @property
    def shielding(self) -> float:
        return 0.5


def process(antenna: Antenna) -> None:
    out = tile.zeros((64,), f32).partition((32,))
    out, _ = scale(out, antenna.gain).sync_on(antenna.stream)
    out, _ = scale(out, antenna.gain).sync_on(antenna.stream)
    out, _ = scale(out, antenna.loss).sync_on(antenna.stream)
    out, _ = scale(out, antenna.loss).sync_on(antenna.stream)


process(Antenna(sk.Device.cpu().new_stream()))
process(ShieldedAntenna(sk.Device.cpu().new_stream()))
