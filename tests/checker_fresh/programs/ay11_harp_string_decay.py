# fresh-expect: E0308 at line 99
# fresh-note: Harp articulations pick kernel and prepared launch in a match statement, and the guarded `harmonic` arm copy-pastes plans["pluck"], so `harmonic.launch` gets a PreparedLaunch branded for `pluck`.
"""Concert harp: amplitude decay of the strings under a scripted sequence of articulations.
Pluck, damp and harmonic articulations are three kernels with their own launch contracts;
their prepared launches are built once into a plan table and a round-robin over the score's
bars picks kernel and plan per articulation with a match statement.
"""
from __future__ import annotations


import itertools

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

STRINGS = 47  # a pedal harp, C1 to G7
PEDAL_BLOCK = 64
DAMP_BLOCK = 32


@simt.kernel
@simt.launch_contract(block=64)
def pluck(amp: Slice[f32], energy: Slice[f32], out: DisjointSlice[f32], force: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(amp[i] + force * energy[i])


@simt.kernel
@simt.launch_contract(block=32)
def damp(amp: Slice[f32], energy: Slice[f32], out: DisjointSlice[f32], rate: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(amp[i] * math.exp(-rate * (1.0 + energy[i])))


@simt.kernel
@simt.launch_contract(block=64)
def harmonic(amp: Slice[f32], energy: Slice[f32], out: DisjointSlice[f32], node: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(amp[i] * node + 0.1 * energy[i])


SCORE = [
    ("pluck", 0.9, 2),
    ("damp", 0.4, 1),
    ("pluck", 0.6, 5),
    ("harmonic", 0.5, 4),
    ("damp", 1.2, 6),
]


def build_plans(dev: sk.Device) -> dict[str, simt.PreparedLaunch]:
    wide = simt.LaunchConfig1D.for_len(STRINGS, block=PEDAL_BLOCK)
    narrow = simt.LaunchConfig1D.for_len(STRINGS, block=DAMP_BLOCK)
    return {
        "pluck": pluck.prepare(wide, dev),
        "damp": damp.prepare(narrow, dev),
        "harmonic": harmonic.prepare(wide, dev),
    }


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1810)
    plans = build_plans(dev)

    energy = sk.to_device(np.linspace(1.0, 0.2, STRINGS, dtype=np.float32), stream)
    amp = sk.to_device(rng.uniform(0.0, 0.05, STRINGS).astype(np.float32), stream)
    out = sk.zeros(STRINGS, f32, stream)

    bars = itertools.cycle(SCORE)
    for bar in range(8):
        articulation, value, octave = next(bars)
        match articulation:
            case "pluck":
                kernel, plan = pluck, plans["pluck"]
            case "damp" if octave >= 5:
                # bass strings ring longer: damp twice as hard
                kernel, plan, value = damp, plans["damp"], value * 2.0
            case "damp":
                kernel, plan = damp, plans["damp"]
            case "harmonic" if octave >= 3:
                kernel, plan = harmonic, plans["pluck"]
            case _:
                print(f"bar {bar}: {articulation} not playable in octave {octave}, rest")
                continue
        kernel.launch(plan, stream, amp, energy, out, value)
        amp, out = out, amp
        print(f"bar {bar}: {articulation:<8} loudest string {int(np.argmax(amp.to_numpy(stream)))}")

    print("final RMS amplitude:", float(np.sqrt(np.mean(amp.to_numpy(stream) ** 2))))


if __name__ == "__main__":
    main()
