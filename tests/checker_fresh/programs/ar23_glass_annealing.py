# fresh-expect: E0505 at line 55
# fresh-known-miss: cli,mypy a `then` chain over a pending op borrowing `as_buffer().split_at` views is appended to an attribute list by one method; another method partitions the tensor: loans of ops an attribute container keeps are not followed across methods
# fresh-note: float-glass annealing lehr; a stress measurement reads the surface half of the sheet through split_at views of the sheet tensor's as_buffer handle in an async launch chained with then(), and the next cooling step partitions the whole sheet while that chain is still pending.
from __future__ import annotations
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

CELLS = 64  # per half: core cells then surface cells


@simt.kernel
@simt.launch_contract(block=32)
def thermal_stress(core: Slice[f32], surface: Slice[f32], stress: DisjointSlice[f32], e_alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (s := stress.get_mut(idx)) is not None:
        s.set(e_alpha * (core[i] - surface[i]))


@tile.kernel
def cool_zone(sheet: Partition[f32], ambient: f32, k: f32) -> None:
    t = sheet.load()
    sheet.store(ambient + (t - ambient) * k)


class Lehr:
    def __init__(self, dev: sk.Device, stream: sk.Stream, start_c: float) -> None:
        self.stream = stream
        self.plan = thermal_stress.prepare(simt.LaunchConfig1D.for_len(CELLS, block=32), dev)
        profile = np.concatenate([np.full(CELLS, start_c), np.full(CELLS, start_c - 25.0)]).astype(np.float32)
        self.sheet = tile.from_numpy(profile).sync_on(stream)
        self.readings: list[sk.DeviceOp] = []

    def measure(self, zone: int) -> None:
        core, surface = self.sheet.as_buffer().split_at(CELLS)
        stress = sk.zeros(CELLS, f32, self.stream)
        op = thermal_stress.launch_async(self.plan, core, surface, stress, 0.62)
        self.readings.append(op.then(lambda args: (zone, args[2])))

    def collect(self) -> list[tuple[int, float]]:
        out = []
        for op in self.readings:
            zone, stress = op.sync_on(self.stream)
            out.append((zone, float(np.abs(stress.to_numpy(self.stream)).max())))
        self.readings.clear()
        return out

    def advance(self, ambient: float, k_core: float) -> None:
        # core and surface cool at the same rate in this simplified zone model
        part = self.sheet.partition((CELLS,))
        (part, _, _) = cool_zone(part, ambient, k_core).sync_on(self.stream)
        self.sheet = part.unpartition()

    def temperatures(self) -> np.ndarray:
        return self.sheet.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    lehr = Lehr(dev, stream, start_c=560.0)
    zones = [(480.0, 0.9), (420.0, 0.85), (300.0, 0.8), (120.0, 0.7)]
    for zone, (ambient, k) in enumerate(zones):
        if zone % 2 == 0:
            lehr.measure(zone)
        lehr.advance(ambient, k)
    for zone, peak in lehr.collect():
        print(f"zone {zone}: peak stress {peak:.1f} MPa")
    temps = lehr.temperatures()
    print(f"exit: core {temps[:CELLS].mean():.0f} C, surface {temps[CELLS:].mean():.0f} C")


if __name__ == "__main__":
    main()
