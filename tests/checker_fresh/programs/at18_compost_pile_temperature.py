# fresh-expect: clean
# fresh-note: Compost windrow monitor that bins probe temperatures into an atomic histogram and writes per-probe pathogen-kill and turning flags into separate buffers from a dict comprehension.
"""Compost windrows: temperature histogram, pathogen-kill check and turning schedule from probe logs."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

BLOCK = 64
BIN_WIDTH_C = 5.0
BINS = 16
FLAGS = ("kill", "turn")


@simt.device
def bin_index(t: f32, width: f32) -> int:
    return int(t / width)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def bin_temps(temp_c: Slice[f32], hist: AtomicSlice[u32], width: f32) -> None:
    i = thread.index_1d().get()
    if i < len(temp_c):
        b = bin_index(temp_c[i], width)
        if b >= 0 and b < len(hist):
            hist.fetch_add(b, u32(1))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def probe_flags(temp_c: Slice[f32], kill: DisjointSlice[f32], turn: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(temp_c):
        t = temp_c[i]
        k = thread.index_1d()
        if (o := kill.get_mut(k)) is not None:
            o.set(f32(1.0) if t >= f32(55.0) else f32(0.0))
        r = thread.index_1d()
        if (o2 := turn.get_mut(r)) is not None:
            o2.set(f32(1.0) if t >= f32(68.0) or t < f32(40.0) else f32(0.0))


class Windrow:
    def __init__(self, dev: sk.Device, stream: sk.Stream, name: str, probes: int) -> None:
        self.name = name
        self.stream = stream
        self.probes = probes
        self.hist = sk.zeros(BINS, u32, stream)
        self.flags = {kind: sk.zeros(probes, f32, stream) for kind in FLAGS}
        cfg = simt.LaunchConfig1D.for_len(probes, block=BLOCK)
        self._bin = bin_temps.prepare(cfg, dev)
        self._flags = probe_flags.prepare(cfg, dev)

    def log(self, temps: np.ndarray) -> None:
        t = sk.to_device(temps.astype(np.float32), self.stream)
        bin_temps.launch(self._bin, self.stream, t, self.hist, BIN_WIDTH_C)
        probe_flags.launch(self._flags, self.stream, t, self.flags["kill"], self.flags["turn"])

    def summary(self) -> str:
        hist = self.hist.to_numpy(self.stream)
        mode = int(np.argmax(hist)) * BIN_WIDTH_C
        kill = self.flags["kill"].to_numpy(self.stream).mean()
        turn = int(self.flags["turn"].to_numpy(self.stream).sum())
        return f"{self.name}: mode {mode:.0f}-{mode + BIN_WIDTH_C:.0f} C, {kill:.0%} at kill temp, turn {turn} probes"


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(31)
    rows = [Windrow(dev, stream, f"row {k}", probes=120) for k in range(3)]
    for day in range(3):
        for k, row in enumerate(rows):
            core = 48.0 + 8.0 * k + 3.0 * day
            row.log(rng.normal(core, 7.0, row.probes).clip(5.0, 79.0))
    for row in rows:
        print(row.summary())


if __name__ == "__main__":
    main()
