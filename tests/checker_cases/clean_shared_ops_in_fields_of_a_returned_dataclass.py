"""A helper that returns a dataclass built from `.shared()` ops (`return Calibration(dark.shared(), ...)`) gives
an object whose fields are those shared ops: launches read them, never move them, also through an object that
stores it (`self.cal = cal`) and a method that runs once per frame."""

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


def load_calibration() -> Calibration:
    return Calibration(tile.ones((N,), f32).shared(), tile.ones((N,), f32).shared())


class Stacker:
    def __init__(self, stream: sk.Stream, cal: Calibration) -> None:
        self.stream = stream
        self.cal = cal

    def add(self) -> None:
        op = subtract(tile.zeros((N,), f32).partition((16,)), tile.ones((N,), f32), self.cal.dark)
        out, _frame, _dark = op.sync_on(self.stream)
        print(out.unpartition().to_numpy(self.stream)[:2])


def main() -> None:
    stacker = Stacker(sk.Device.cpu().new_stream(), load_calibration())
    for _ in range(3):
        stacker.add()


if __name__ == "__main__":
    main()
