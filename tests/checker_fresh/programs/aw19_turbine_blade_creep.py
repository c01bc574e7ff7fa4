# fresh-expect: E0505 at line 69
# fresh-known-miss: cli,mypy a `@contextmanager` method yielding a local buffer its pending op writes (`yield out`, synced in `finally`): only module-level generators yielding a parameter are followed
# fresh-note: A turbine creep lab decodes stress asynchronously inside a @contextmanager method that syncs in its finally, and for hot first-stage blades calls creep_life() inside the with-block, moving the still-borrowed stress buffer into a tile launch.
"""Gas turbine blade creep: decode strain-gauge stress asynchronously, then a Norton creep-rate tile pass per blade."""
from __future__ import annotations
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

GAUGES = 128
HOT_K = 1100.0


@simt.kernel
@simt.launch_contract(block=64)
def decode_stress(counts: Slice[f32], stress_mpa: DisjointSlice[f32], gauge_factor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := stress_mpa.get_mut(idx)) is not None:
        o.set(counts[i] * gauge_factor)


@tile.kernel
def norton_rate(rate: Partition[f32], stress: Tensor[f32], temp_k: Tensor[f32], a: f32) -> None:
    s = tile.load_like(stress, rate) / 100.0
    t = tile.load_like(temp_k, rate)
    rate.store(a * s * s * s * s * tile.exp((t - 1000.0) / 60.0))


@dataclass(frozen=True)
class Blade:
    serial: str
    stage: int
    hours: float


class CreepLab:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.decode_plan = decode_stress.prepare(simt.LaunchConfig1D.for_len(GAUGES, block=64), dev)
        self.stress: dict[str, sk.DeviceBuffer] = {}

    def temperature(self, blade: Blade) -> np.ndarray:
        span = np.linspace(0.0, 1.0, GAUGES, dtype=np.float32)
        peak = 1180.0 - 140.0 * (blade.stage - 1)
        return (peak - 90.0 * (span - 0.6) ** 2).astype(np.float32)

    @contextmanager
    def decoding(self, blade: Blade) -> Iterator[sk.DeviceBuffer]:
        rng = np.random.default_rng(int(blade.hours))
        counts = sk.to_device((900.0 + 40.0 * rng.standard_normal(GAUGES)).astype(np.float32), self.stream)
        out = self.stress.setdefault(blade.serial, sk.zeros(GAUGES, f32, self.stream))
        op = decode_stress.launch_async(self.decode_plan, counts, out, 0.25)
        try:
            yield out
        finally:
            op.sync_on(self.stream)

    def creep_life(self, blade: Blade, stress: sk.DeviceBuffer, temps: np.ndarray) -> float:
        rate = tile.zeros((GAUGES,), f32).partition((32,))
        rate, self.stress[blade.serial], _t, _a = norton_rate(rate, stress, tile.from_numpy(temps), 2e-9).sync_on(self.stream)
        worst = float(rate.to_numpy(self.stream).max())
        return 0.01 / worst - blade.hours

    def inspect(self, blade: Blade) -> float:
        temps = self.temperature(blade)
        life = None
        with self.decoding(blade) as stress:
            if blade.stage == 1 and temps.max() > HOT_K:
                life = self.creep_life(blade, stress, temps)
        if life is None:
            life = self.creep_life(blade, self.stress[blade.serial], temps)
        return life


def main() -> None:
    lab = CreepLab(sk.Device.default())
    fleet = [Blade("HPT3-017", 3, 21000.0), Blade("HPT2-044", 2, 18000.0), Blade("HPT1-102", 1, 15500.0)]
    remaining = {b.serial: lab.inspect(b) for b in fleet}
    for serial, hours in sorted(remaining.items(), key=lambda kv: kv[1]):
        print(f"{serial}: {hours:,.0f} h of creep life left")


if __name__ == "__main__":
    main()
