# fresh-expect: clean
# fresh-note: Velodrome lap timing that converts transponder crossings into split times, writing both half-lap sectors into the two disjoint halves of one buffer and draining queued async launches.
"""Velodrome timing: sector splits from transponder crossing timestamps for several riders."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def sector_splits(crossings: Slice[f32], back: DisjointSlice[f32], home: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    lap = idx.get()
    if 2 * lap + 2 < len(crossings):
        start = crossings[2 * lap]
        mid = crossings[2 * lap + 1]
        end = crossings[2 * lap + 2]
        if (b := back.get_mut(idx)) is not None:
            b.set(mid - start)
        h = thread.index_1d()
        if (o := home.get_mut(h)) is not None:
            o.set(end - mid)


class Rider:
    def __init__(self, name: str, laps: int, stream: sk.Stream, seed: int) -> None:
        rng = np.random.default_rng(seed)
        halves = rng.normal(8.1, 0.25, 2 * laps).astype(np.float32)
        self.name = name
        self.laps = laps
        self.crossings = sk.to_device(np.concatenate([[0.0], np.cumsum(halves)]).astype(np.float32), stream)
        self.splits = sk.zeros(2 * laps, f32, stream)

    def sectors(self) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        return self.splits.split_at(self.laps)


def queue_riders(riders: list[Rider], dev: sk.Device) -> list[sk.DeviceOp]:
    pending = []
    for rider in riders:
        back, home = rider.sectors()
        prepared = sector_splits.prepare(simt.LaunchConfig1D.for_len(rider.laps, block=BLOCK), dev)
        pending.append(sector_splits.launch_async(prepared, rider.crossings, back, home))
    return pending


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    riders = [Rider(name, laps, stream, seed) for seed, (name, laps) in enumerate([("Ada", 16), ("Bo", 12), ("Cy", 20)])]
    pending = queue_riders(riders, dev)
    while pending:
        pending.pop(0).sync_on(stream)
    board = []
    for rider in riders:
        splits = rider.splits.to_numpy(stream)
        back, home = splits[: rider.laps], splits[rider.laps :]
        fastest = float((back + home).min())
        board.append((fastest, rider.name, float(back.mean()), float(home.mean())))
    for rank, (fastest, name, back_avg, home_avg) in enumerate(sorted(board), start=1):
        print(f"{rank}. {name:3s} best lap {fastest:.3f}s  back {back_avg:.3f}s  home {home_avg:.3f}s")


if __name__ == "__main__":
    main()
