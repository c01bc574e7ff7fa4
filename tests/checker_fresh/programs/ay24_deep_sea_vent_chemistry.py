# fresh-expect: clean
# fresh-note: Vent plume species launch_async ops all read the same temperature view of one sensor arena and write disjoint split_at pieces of one output arena; the dict of ops is fully drained before the output is read.
"""Hydrothermal vent plume: dissolved sulfide, iron and methane along a vertical plume profile.

Three species reactions are launched asynchronously. They all read the same temperature
window of the sensor arena (overlapping shared reads are fine) and write disjoint pieces of
one output arena cut with split_at. The pending ops are collected in a dict and all synced
before the arena is read or rebound for the next cast.
"""
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DEPTHS = 80
CASTS = 3


@simt.kernel
@simt.launch_contract(block=32)
def react(temp: Slice[f32], source: Slice[f32], conc: DisjointSlice[f32], activation: f32, decay: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (c := conc.get_mut(idx)) is not None:
        rate = math.exp(-activation / (temp[i] + 273.15))
        c.set(source[i] * rate * 1.0e4 * math.exp(-decay * f32(i)))


SPECIES = {  # activation (K), decay per depth cell
    "sulfide": (3200.0, 0.06),
    "iron": (2600.0, 0.02),
    "methane": (4100.0, 0.09),
}


def ctd_cast(rng: np.random.Generator, cast: int) -> np.ndarray:
    """Temperatures for the plume profile followed by the source strength at the same depths."""
    temp = 2.0 + 340.0 * np.exp(-np.arange(DEPTHS) / (6.0 + cast)) + rng.normal(0.0, 0.5, DEPTHS)
    source = rng.uniform(0.5, 1.5, DEPTHS)
    return np.concatenate([temp, source]).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1977)
    prepared = react.prepare(simt.LaunchConfig1D.for_len(DEPTHS, block=32), dev)

    for cast in range(CASTS):
        sensors = sk.to_device(ctd_cast(rng, cast), stream)
        temp = sensors.view(0, DEPTHS)
        source = sensors[DEPTHS : 2 * DEPTHS]

        out = sk.zeros(len(SPECIES) * DEPTHS, f32, stream)
        sulfide, rest = out.split_at(DEPTHS)
        iron, methane = rest.split_at(DEPTHS)
        targets = {"sulfide": sulfide, "iron": iron, "methane": methane}

        inflight: dict[str, sk.DeviceOp] = {}
        for name, (activation, decay) in SPECIES.items():
            inflight[name] = react.launch_async(prepared, temp, source, targets[name], activation, decay)

        for name in list(inflight):
            inflight.pop(name).sync_on(stream)

        profile = out.to_numpy(stream).reshape(len(SPECIES), DEPTHS)
        peaks = ", ".join(f"{name} {row.max():.3g} @ {int(np.argmax(row))}" for name, row in zip(SPECIES, profile))
        print(f"cast {cast}: {peaks}")

    print(f"last cast: vent temperature {temp.to_numpy(stream)[0]:.1f} C")


if __name__ == "__main__":
    main()
