# fresh-expect: clean
# fresh-note: Fireworks show shell timing; lift and burst delays are written into the two disjoint halves of one split_at buffer, with a cue search loop using for/else.
"""Fuse timing for an aerial fireworks show, cue by cue."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SHELLS = 80


@simt.kernel
@simt.launch_contract(block=32)
def fuse_delays(burn_rate: Slice[f32], calibre: Slice[f32], lift: DisjointSlice[f32],
                burst: DisjointSlice[f32], wind: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (l := lift.get_mut(idx)) is not None:
        l.set(calibre[i] * f32(0.02) / burn_rate[i])
    if (b := burst.get_mut(thread.index_1d())) is not None:
        b.set(calibre[i] * f32(0.035) + wind * f32(0.1))


@dataclass(frozen=True)
class Cue:
    label: str
    start: int
    stop: int


class ShowPlanner:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = fuse_delays.prepare(simt.LaunchConfig1D.for_len(SHELLS, block=32), dev)
        self.timeline = sk.zeros(2 * SHELLS, f32, stream)

    def plan(self, burn_rate: sk.DeviceBuffer, calibre: sk.DeviceBuffer, wind: float) -> tuple[np.ndarray, np.ndarray]:
        lift, burst = self.timeline.split_at(SHELLS)
        fuse_delays.launch(self.prepared, self.stream, burn_rate, calibre, lift, burst, wind)
        return lift.to_numpy(self.stream), burst.to_numpy(self.stream)


def cues(total: int, size: int):
    for k, start in enumerate(range(0, total, size)):
        yield Cue(f"cue-{k + 1}", start, min(start + size, total))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(17)
    calibre = sk.to_device(rng.choice([75.0, 100.0, 125.0, 150.0], SHELLS).astype(np.float32), stream)
    burn = sk.to_device(rng.uniform(0.8, 1.2, SHELLS).astype(np.float32), stream)
    planner = ShowPlanner(dev, stream)
    for wind in (2.0, 6.5):
        lift, burst = planner.plan(burn, calibre, wind)
        total = lift + burst
        for cue in cues(SHELLS, 16):
            if total[cue.start:cue.stop].max() > 6.0:
                print(f"wind {wind}: {cue.label} exceeds the 6 s window")
                break
        else:
            print(f"wind {wind}: every cue fits, longest shell {total.max():.2f} s")


if __name__ == "__main__":
    main()
