# fresh-expect: clean
# fresh-note: Shapes queued waka hull sections with a tile kernel chosen per adze; the shared grain map is moved into each launch but rebound on the Carver from the values sync_on hands back before the next section uses it.
"""Waka hull adzing planner: shapes queued hull sections against one timber grain map, a kernel per adze."""
from __future__ import annotations

import collections
import enum
from dataclasses import dataclass, field

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

STATIONS = 512
TILE = 128


@tile.kernel
def roughing(depth: Partition[f32], hull: Tensor[f32], grain: Tensor[f32], bite: f32) -> None:
    h = tile.load_like(hull, depth)
    g = tile.load_like(grain, depth)
    depth.store(h - bite * (1.0 - g * 0.5))


@tile.kernel
def finishing(depth: Partition[f32], hull: Tensor[f32], grain: Tensor[f32], bite: f32) -> None:
    h = tile.load_like(hull, depth)
    g = tile.load_like(grain, depth)
    depth.store(tile.maximum(h - bite * g, h * 0.9))


class Adze(enum.Enum):
    TOKI = "toki"
    ONE = "one-hand"


ADZE_KERNELS = {Adze.TOKI: roughing, Adze.ONE: finishing}
BITE = {Adze.TOKI: 0.08, Adze.ONE: 0.02}


@dataclass
class Section:
    name: str
    adze: Adze
    hull: sk.DeviceOp
    removed: float = field(default=float("nan"))


class Carver:
    def __init__(self, device: sk.Device, n: int, seed: int) -> None:
        self.stream = device.new_stream()
        self.n = n
        rng = np.random.default_rng(seed)
        # the tōtara log's grain map: read by every section, handed back after each cut
        self.grain = tile.from_numpy(rng.uniform(0.0, 1.0, n).astype(np.float32))
        self.queue: collections.deque[Section] = collections.deque()

    def enqueue(self, name: str, adze: Adze, hull: np.ndarray) -> "Carver":
        self.queue.append(Section(name, adze, tile.from_numpy(hull.astype(np.float32))))
        return self

    def carve_all(self) -> list[Section]:
        done = []
        while self.queue:
            section = self.queue.popleft()
            kernel = ADZE_KERNELS[section.adze]
            depth = tile.zeros((self.n,), f32).partition((TILE,))
            op = kernel(depth, section.hull, self.grain, BITE[section.adze])
            depth, hull, self.grain, _ = op.sync_on(self.stream)
            before = hull.to_numpy(self.stream)
            section.removed = float((before - depth.unpartition().to_numpy(self.stream)).sum())
            done.append(section)
        return done


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(8)
    carver = Carver(device, STATIONS, seed=41)
    (
        carver.enqueue("taurapa", Adze.TOKI, rng.uniform(1.0, 1.2, STATIONS))
        .enqueue("haumi", Adze.ONE, rng.uniform(0.9, 1.1, STATIONS))
        .enqueue("tauihu", Adze.TOKI, rng.uniform(1.1, 1.3, STATIONS))
    )
    for section in carver.carve_all():
        print(f"{section.name:>8} [{section.adze.value}]: removed {section.removed:.2f}")


if __name__ == "__main__":
    main()
