# fresh-expect: E0308 at line 79
# fresh-known-miss: cli,mypy `dict(zip(sorted(KERNELS), (k.prepare(...) for k in KERNELS.values())))`: a table built by pairing two iterations is not read item by item
# fresh-note: the rack pairs `sorted(KERNELS)` names with launches prepared from `KERNELS.values()` in insertion order, so `prepared["gain"]` is branded for `polarity` and the gain launch gets the wrong prepared launch.
"""An insert-effect rack: effects are looked up by name in a kernel registry, each with a launch prepared once
per rack, and run in the order of the session's insert slots (bypassed slots are skipped)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 500


@simt.kernel
@simt.launch_contract(block=128)
def gain_fx(x: Slice[f32], y: DisjointSlice[f32], amount: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * amount)


@simt.kernel
@simt.launch_contract(block=128)
def polarity_fx(x: Slice[f32], y: DisjointSlice[f32], amount: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    sign = f32(1.0)
    if amount > 0.5:
        sign = f32(-1.0)
    if (o := y.get_mut(idx)) is not None:
        o.set(sign * x[i])


@simt.kernel
@simt.launch_contract(block=128)
def drive_fx(x: Slice[f32], y: DisjointSlice[f32], amount: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(math.tanh(x[i] * amount) / math.tanh(amount))


KERNELS = {"gain": gain_fx, "polarity": polarity_fx, "drive": drive_fx}


@dataclass
class Insert:
    name: str
    amount: float
    bypass: bool = False


class Rack:
    def __init__(self, dev: sk.Device, frames: int) -> None:
        self.stream = dev.new_stream()
        self.frames = frames
        names = sorted(KERNELS)  # stable order for the session log
        config = simt.LaunchConfig1D.for_len(frames, block=128)
        self.prepared = dict(zip(names, (k.prepare(config, dev) for k in KERNELS.values())))
        self.log = [f"prepared {name}" for name in names]

    def process(self, slots: list[Insert], block: np.ndarray) -> np.ndarray:
        cur = sk.to_device(block.astype(np.float32), self.stream)
        out = sk.zeros(self.frames, f32, self.stream)
        for slot in slots:
            if slot.bypass:
                self.log.append(f"skip {slot.name}")
                continue
            kernel = KERNELS[slot.name]
            kernel.launch(self.prepared[slot.name], self.stream, cur, out, slot.amount)
            self.log.append(f"ran {slot.name}({slot.amount:g})")
            cur, out = out, cur
        return cur.to_numpy(self.stream)


def reference(slots: list[Insert], block: np.ndarray) -> np.ndarray:
    y = block.astype(np.float32)
    for slot in slots:
        if slot.bypass:
            continue
        if slot.name == "gain":
            y = y * np.float32(slot.amount)
        elif slot.name == "polarity":
            y = -y if slot.amount > 0.5 else y
        else:
            y = np.tanh(y * slot.amount) / np.tanh(slot.amount)
    return y


def main() -> None:
    dev = sk.Device.default()
    rack = Rack(dev, FRAMES)
    slots = [Insert("gain", 1.5), Insert("drive", 3.0), Insert("polarity", 1.0, bypass=True), Insert("gain", 0.5)]
    t = np.arange(FRAMES) / 12000.0
    block = (0.7 * np.sin(2 * np.pi * 150 * t)).astype(np.float32)
    got = rack.process(slots, block)
    np.testing.assert_allclose(got, reference(slots, block), rtol=1e-5, atol=1e-5)
    print(f"rack: {'; '.join(rack.log)}; peak {np.abs(got).max():.3f}")


if __name__ == "__main__":
    main()
