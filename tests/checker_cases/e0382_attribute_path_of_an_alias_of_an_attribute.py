"""Attribute paths follow the object, not the name that reaches it: after `cal = self.cal`, `cal.dark` is the
object `self.cal.dark` is, so a launch that moves it through the local name makes a later launch through the
attribute a use after move, as the runtime finds."""

from dataclasses import dataclass

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def subtract(out: Partition[f32], frame: Tensor[f32], dark: Tensor[f32]) -> None:
    out.store(tile.load_like(frame, out) - tile.load_like(dark, out))


@dataclass
class Calibration:
    dark: sk.DeviceOp
    flat: sk.DeviceOp


class Stacker:
    def __init__(self) -> None:
        self.cal = Calibration(tile.ones((N,), f32), tile.ones((N,), f32))

    def add(self, stream: sk.Stream) -> None:
        cal = self.cal
        first = subtract(tile.zeros((N,), f32).partition((16,)), tile.ones((N,), f32), cal.dark)
        first.sync_on(stream)
        again = subtract(tile.zeros((N,), f32).partition((16,)), tile.ones((N,), f32), self.cal.dark)  # expect: E0382
        again.sync_on(stream)


def main() -> None:
    Stacker().add(sk.Device.cpu().new_stream())


if __name__ == "__main__":
    main()
