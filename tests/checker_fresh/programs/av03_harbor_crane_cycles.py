# fresh-expect: clean
# fresh-note: Harbor crane cycle analysis that splits each crane's cycle log into hoist and travel phases written into the two halves of one packed buffer, obtained with split_at through a dataclass property, so the two outputs never overlap.
"""Split container-crane cycle durations into hoist and trolley-travel time."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N_CYCLES = 1024
HOIST_SHARE = 0.42


@simt.kernel
@simt.launch_contract(block=128, requires=("len(cycle) >= len(hoist)", "len(cycle) >= len(travel)"))
def split_cycle(cycle: Slice[f32], load_t: Slice[f32], hoist: DisjointSlice[f32], travel: DisjointSlice[f32],
                share: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    other = thread.index_1d()
    h = cycle[i] * share + load_t[i] * f32(0.01) if i < len(cycle) else f32(0.0)
    if (o := hoist.get_mut(idx)) is not None:
        o.set(h)
    if (t := travel.get_mut(other)) is not None:
        t.set(cycle[i] - h)


@dataclass
class CraneLog:
    crane_id: str
    n: int
    stream: sk.Stream
    packed: sk.DeviceBuffer = field(init=False)

    def __post_init__(self) -> None:
        self.packed = sk.zeros(2 * self.n, f32, self.stream)

    @property
    def phases(self) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        return self.packed.split_at(self.n)


def synthetic_cycles(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    cycles = rng.normal(95.0, 12.0, n).astype(np.float32)
    loads = rng.uniform(10.0, 40.0, n).astype(np.float32)
    return cycles, loads


def analyse(crane_ids: list[str], dev: sk.Device, stream: sk.Stream) -> dict[str, tuple[float, float]]:
    prepared = split_cycle.prepare(simt.LaunchConfig1D.for_len(N_CYCLES, block=128), dev)
    report: dict[str, tuple[float, float]] = {}
    for seed, crane_id in enumerate(crane_ids):
        log = CraneLog(crane_id, N_CYCLES, stream)
        cycles_np, loads_np = synthetic_cycles(seed, N_CYCLES)
        cycles = sk.to_device(cycles_np, stream)
        loads = sk.to_device(loads_np, stream)
        hoist, travel = log.phases
        split_cycle.launch(prepared, stream, cycles, loads, hoist, travel, HOIST_SHARE)
        report[crane_id] = (float(hoist.to_numpy(stream).mean()), float(travel.to_numpy(stream).mean()))
    return report


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    for crane, (h, t) in analyse(["STS-01", "STS-02", "RTG-07"], dev, stream).items():
        print(f"{crane}: hoist {h:5.1f}s travel {t:5.1f}s")


if __name__ == "__main__":
    main()
