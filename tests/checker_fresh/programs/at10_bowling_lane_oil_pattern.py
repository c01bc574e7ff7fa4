# fresh-expect: W0003 at line 42
# fresh-note: Bowling centre lane-conditioning planner that builds an oil-pattern tile launch per lane; for lanes closed for maintenance the loop continues after building the op, so that launch is dropped without ever running.
"""Bowling centre: lay down each lane's oil pattern and report the remaining oil at the breakpoint."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BOARDS = 39
STRIPS = 60


@tile.kernel
def condition(oil: Partition[f32], pattern: Tensor[f32], volume: f32) -> None:
    applied = tile.load_like(pattern, oil) * volume
    oil.store(oil.load() * 0.35 + applied)


def house_pattern(length_ft: int) -> np.ndarray:
    strips = np.arange(STRIPS, dtype=np.float32)[:, None]
    boards = np.abs(np.arange(BOARDS, dtype=np.float32) - 19.0)[None, :]
    crown = np.exp(-(boards / 9.0) ** 2)
    fade = (strips < length_ft).astype(np.float32)
    return (crown * fade).astype(np.float32)


class Lane:
    def __init__(self, number: int, length_ft: int, volume_ml: float, closed: bool = False) -> None:
        self.number = number
        self.length_ft = length_ft
        self.volume_ml = volume_ml
        self.closed_for_maintenance = closed
        self.oil = tile.zeros((STRIPS, BOARDS), f32).partition((20, BOARDS))

    def oil_op(self) -> sk.DeviceOp:
        pattern = tile.from_numpy(house_pattern(self.length_ft))
        return condition(self.oil, pattern, self.volume_ml / 25.0)


def condition_house(lanes: list[Lane], stream: sk.Stream) -> dict[int, float]:
    breakpoint_oil = {}
    for lane in lanes:
        op = lane.oil_op()
        if lane.closed_for_maintenance:
            print(f"lane {lane.number}: closed, machine skips it")
            continue
        oil, _pattern, _ = op.sync_on(stream)
        grid = oil.unpartition().to_numpy(stream)
        breakpoint_oil[lane.number] = float(grid[lane.length_ft - 8, 8])
        lane.oil = tile.from_numpy(grid).partition((20, BOARDS))
    return breakpoint_oil


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    lanes = [
        Lane(1, 41, 24.0),
        Lane(2, 41, 24.0),
        Lane(3, 38, 22.0, closed=True),
        Lane(4, 45, 27.5),
    ]
    report = condition_house(lanes, stream)
    for number, oil in report.items():
        print(f"lane {number}: {oil:.3f} units at the breakpoint")


if __name__ == "__main__":
    main()
