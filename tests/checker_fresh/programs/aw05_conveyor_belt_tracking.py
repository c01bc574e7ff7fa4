# fresh-expect: E0382 at line 55
# fresh-known-miss: cli,mypy a method moving a field of each item of an attribute list in a loop (`seg.vel`) and restoring it only on one path: the next call's loop meets the moved field; moves of items' fields are not kept across loops or calls
# fresh-note: A conveyor line advances each belt segment's tile tensors per tick; the jam branch stores back the cleared positions but not the handed-back velocity tensor before `continue`, so the next tick launches with a moved seg.vel.
"""Conveyor belt parcel tracking: advance parcel positions per belt segment each tick and clear jams."""
from __future__ import annotations
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

PARCELS = 128
TILE = 32


@tile.kernel
def advance(pos: Partition[f32], vel: Tensor[f32], dt: f32) -> None:
    pos.store(pos.load() + tile.load_like(vel, pos) * dt)


@dataclass
class BeltSegment:
    name: str
    pos: Partition
    vel: Tensor
    jam_at: float
    cleared: int = 0


@dataclass
class ConveyorLine:
    stream: sk.Stream
    segments: list[BeltSegment] = field(default_factory=list)
    jams: list[tuple[str, float]] = field(default_factory=list)

    def add_segment(self, name: str, speed: float, jam_at: float, seed: int) -> None:
        rng = np.random.default_rng(seed)
        start = np.sort(rng.random(PARCELS).astype(np.float32)) * 4.0
        speeds = np.full(PARCELS, speed, np.float32) * (0.9 + 0.2 * rng.random(PARCELS).astype(np.float32))
        pos = tile.from_numpy(start).sync_on(self.stream).partition((TILE,))
        vel = tile.from_numpy(speeds).sync_on(self.stream)
        self.segments.append(BeltSegment(name, pos, vel, jam_at))

    def clear_jam(self, seg: BeltSegment, pos: Partition) -> Partition:
        host = pos.unpartition().to_numpy(self.stream)
        host = np.minimum(host, seg.jam_at - 0.5)
        seg.cleared += 1
        return tile.from_numpy(host.astype(np.float32)).sync_on(self.stream).partition((TILE,))

    def tick(self, dt: float) -> None:
        for seg in self.segments:
            pos, vel, _ = advance(seg.pos, seg.vel, dt).sync_on(self.stream)
            lead = float(pos.to_numpy(self.stream).max())
            if lead > seg.jam_at:
                self.jams.append((seg.name, lead))
                seg.pos = self.clear_jam(seg, pos)
                continue
            seg.pos, seg.vel = pos, vel

    def positions(self) -> dict[str, float]:
        return {seg.name: float(seg.pos.to_numpy(self.stream).mean()) for seg in self.segments}


def main() -> None:
    line = ConveyorLine(sk.Device.default().new_stream())
    line.add_segment("infeed", speed=0.8, jam_at=12.0, seed=3)
    line.add_segment("merge", speed=1.6, jam_at=5.0, seed=4)
    line.add_segment("sorter", speed=1.2, jam_at=14.0, seed=5)
    for step in range(4):
        line.tick(dt=0.5)
        print(step, {k: round(v, 2) for k, v in line.positions().items()})
    print("jams:", line.jams)


if __name__ == "__main__":
    main()
