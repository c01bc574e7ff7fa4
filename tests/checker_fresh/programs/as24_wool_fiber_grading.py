# fresh-expect: clean
# fresh-note: Wool-clip fibre grading; an observer hook runs right after each bale's launch_async is queued but only reads the diameter input, and the prickle output is read after every op is synced.
"""Comfort factor and spinning fineness for the bales of a shearing-shed wool clip."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SNIPPETS = 400             # fibre snippets measured per bale (OFDA)
PRICKLE_MICRON = 30.0


@simt.kernel
@simt.launch_contract(block=128)
def prickle_flags(diameter: Slice[f32], coarse: DisjointSlice[f32], threshold: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (c := coarse.get_mut(idx)) is not None:
        flag = f32(0.0)
        if diameter[i] > threshold:
            flag = f32(1.0)
        c.set(flag)


@dataclass
class Bale:
    tag: str
    diameters: sk.DeviceBuffer
    coarse: sk.DeviceBuffer
    results: dict[str, float] = field(default_factory=dict)


class ClassingTable:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = prickle_flags.prepare(simt.LaunchConfig1D.for_len(SNIPPETS, block=128), dev)
        self.listeners: list[Callable[[Bale], None]] = []

    def subscribe(self, listener: Callable[[Bale], None]) -> Callable[[Bale], None]:
        self.listeners.append(listener)
        return listener

    def class_clip(self, bales: list[Bale]) -> float:
        queued: dict[str, sk.DeviceOp] = {}
        for bale in bales:
            queued[bale.tag] = prickle_flags.launch_async(self.prepared, bale.diameters, bale.coarse, PRICKLE_MICRON)
            for listener in self.listeners:
                listener(bale)
        for tag, op in queued.items():
            op.sync_on(self.stream)
        comfort = []
        for bale in bales:
            flags = bale.coarse.to_numpy(self.stream)
            bale.results["comfort_factor"] = 100.0 * (1.0 - float(flags.mean()))
            comfort.append(bale.results["comfort_factor"])
        return float(np.mean(comfort))


def measure_bale(seed: int, mean_micron: float, stream: sk.Stream) -> sk.DeviceBuffer:
    rng = np.random.default_rng(seed)
    microns = rng.lognormal(np.log(mean_micron), 0.22, SNIPPETS)
    return sk.to_device(microns.astype(np.float32), stream)


def line_for(mean_micron: float) -> str:
    if mean_micron < 18.5:
        return "superfine merino"
    return "fine merino" if mean_micron < 21.5 else "medium"


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    table = ClassingTable(dev, stream)
    fineness: dict[str, float] = {}

    @table.subscribe
    def record_fineness(bale: Bale) -> None:
        fineness[bale.tag] = float(bale.diameters.to_numpy(stream).mean())

    bales = [Bale(tag, measure_bale(k, mic, stream), sk.zeros(SNIPPETS, f32, stream))
             for k, (tag, mic) in enumerate((("AAA-01", 17.8), ("AAA-02", 19.4), ("BBB-07", 22.6), ("PCS-11", 25.0)))]
    clip_comfort = table.class_clip(bales)
    for bale in bales:
        mic = fineness[bale.tag]
        print(f"{bale.tag}: {mic:5.1f} um ({line_for(mic)}), comfort factor {bale.results['comfort_factor']:5.1f}%")
    print(f"clip comfort factor {clip_comfort:.1f}%")


if __name__ == "__main__":
    main()
