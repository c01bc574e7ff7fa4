"""A constructor that stores its argument (`self.cal = cal`) makes the object's attribute the caller's object:
`station.cal.dark` is `cal.dark`, so moving `cal.dark` into a launch makes a later launch of
`station.cal.dark` a use after move, as the runtime finds."""

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


class Station:
    def __init__(self, cal: Calibration) -> None:
        self.cal = cal


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    cal = Calibration(tile.ones((N,), f32), tile.ones((N,), f32))
    station = Station(cal)
    first = subtract(tile.zeros((N,), f32).partition((16,)), tile.ones((N,), f32), cal.dark)
    first.sync_on(stream)
    again = subtract(tile.zeros((N,), f32).partition((16,)), tile.ones((N,), f32), station.cal.dark)  # expect: E0382
    again.sync_on(stream)


if __name__ == "__main__":
    main()
