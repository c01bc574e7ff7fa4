# fresh-expect: clean
# fresh-note: Kombucha brewery model that launches one async SIMT fermentation step per vessel from a list comprehension over zip(vessels, outputs), each vessel writing its own freshly allocated buffer, and runs them together with sk.zip.
"""Sugar-to-acid conversion across the vessels of a kombucha brewery."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SAMPLES = 1024   # depth samples per vessel


@simt.kernel
@simt.launch_contract(block=128)
def ferment(sugar: Slice[f32], scoby: Slice[f32], acid: DisjointSlice[f32], days: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := acid.get_mut(idx)) is not None:
        converted = sugar[i] * (f32(1.0) - f32(1.0) / (f32(1.0) + scoby[i] * days))
        o.set(converted * f32(0.6))


@dataclass
class Vessel:
    name: str
    sugar: sk.DeviceBuffer
    scoby: sk.DeviceBuffer


def stock_vessels(names: list[str], stream: sk.Stream) -> list[Vessel]:
    rng = np.random.default_rng(12)
    vessels = []
    for name in names:
        sugar = sk.to_device(rng.uniform(60.0, 90.0, SAMPLES).astype(np.float32), stream)
        scoby = sk.to_device(rng.uniform(0.05, 0.2, SAMPLES).astype(np.float32), stream)
        vessels.append(Vessel(name, sugar, scoby))
    return vessels


def brew(vessels: list[Vessel], days: float, dev: sk.Device, stream: sk.Stream) -> dict[str, float]:
    prepared = ferment.prepare(simt.LaunchConfig1D.for_len(SAMPLES, block=128), dev)
    outputs = [sk.zeros(SAMPLES, f32, stream) for _ in vessels]
    ops = [ferment.launch_async(prepared, v.sugar, v.scoby, out, days) for v, out in zip(vessels, outputs)]
    sk.zip(*ops).sync_on(stream)
    return {v.name: float(out.to_numpy(stream).mean()) for v, out in zip(vessels, outputs)}


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    vessels = stock_vessels(["oak-1", "oak-2", "steel-A", "steel-B"], stream)
    for days in (3.0, 7.0, 10.0):
        acid = brew(vessels, days, dev, stream)
        print(f"day {days:>4}: " + ", ".join(f"{k} {v:.1f} g/L" for k, v in acid.items()))


if __name__ == "__main__":
    main()
