# fresh-expect: E0502 at line 64
# fresh-note: A print-shop press run keeps per-plate launch_async density ops pending in a dict, and a misregistered plate triggers trap_check(), whose launch reads density buffers the pending ops still write, before finish() syncs them.
"""Printmaking press run: async ink-density per CMYK plate, with a trap check between misregistered plates."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SHEET = 256
PLATES = ("cyan", "magenta", "yellow", "key")


@simt.kernel
@simt.launch_contract(block=128)
def ink_density(coverage: Slice[f32], density: DisjointSlice[f32], absorb: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := density.get_mut(idx)) is not None:
        o.set(1.0 - math.exp(-absorb * coverage[i]))


@simt.kernel
@simt.launch_contract(block=128)
def overprint(under: Slice[f32], over: Slice[f32], trapped: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := trapped.get_mut(idx)) is not None:
        o.set(min(under[i] + over[i], f32(1.0)))


@dataclass
class Sheet:
    edition: int
    offsets_px: dict[str, int] = field(default_factory=dict)


class PressRun:
    def __init__(self, dev: sk.Device, tolerance_px: int = 2) -> None:
        self.stream = dev.new_stream()
        self.tolerance = tolerance_px
        config = simt.LaunchConfig1D.for_len(SHEET, block=128)
        self.density_plan = ink_density.prepare(config, dev)
        self.trap_plan = overprint.prepare(config, dev)
        self.density = {plate: sk.zeros(SHEET, f32, self.stream) for plate in PLATES}
        self.trapped = sk.zeros(SHEET, f32, self.stream)
        self.pending: dict[str, sk.DeviceOp] = {}
        self.traps: list[tuple[str, str, float]] = []

    def lay(self, plate: str, sheet: Sheet) -> None:
        shift = sheet.offsets_px.get(plate, 0)
        x = np.arange(SHEET, dtype=np.float32)
        coverage = np.clip(np.sin((x + shift) / 20.0) * 0.5 + 0.5, 0.0, 1.0).astype(np.float32)
        ink = sk.to_device(coverage, self.stream)
        self.pending[plate] = ink_density.launch_async(self.density_plan, ink, self.density[plate], 1.4)

    def trap_check(self, under: str, over: str) -> None:
        overprint.launch(self.trap_plan, self.stream, self.density[under], self.density[over], self.trapped)
        self.traps.append((under, over, float(self.trapped.to_numpy(self.stream).mean())))

    def finish(self) -> dict[str, float]:
        for plate in list(self.pending):
            self.pending.pop(plate).sync_on(self.stream)
        return {plate: float(buf.to_numpy(self.stream).mean()) for plate, buf in self.density.items()}

    def pull(self, sheet: Sheet) -> dict[str, float]:
        previous = None
        for plate in PLATES:
            self.lay(plate, sheet)
            drift = abs(sheet.offsets_px.get(plate, 0) - sheet.offsets_px.get(previous, 0)) if previous else 0
            if drift > self.tolerance:
                self.trap_check(previous, plate)
            previous = plate
        return self.finish()


def main() -> None:
    press = PressRun(sk.Device.default())
    edition = [Sheet(1), Sheet(2, {"magenta": 1}), Sheet(3, {"yellow": 4, "key": 4})]
    for sheet in edition:
        densities = press.pull(sheet)
        print(sheet.edition, {k: round(v, 3) for k, v in densities.items()})
    print("traps:", press.traps)


if __name__ == "__main__":
    main()
