# fresh-expect: E0505 at line 63
# fresh-note: Opera surtitle timing; cue-duration launches are queued with launch_async for a later flush, but crossfade acts partition their durations buffer for the fade kernel while that act's queued op still writes it.
"""Surtitle display times for an opera night: reading speed, gaps and crossfades."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

CHARS_PER_SECOND = 14.0
FADE_SECONDS = 0.4
CUE_TILE = 16


@simt.kernel
@simt.launch_contract(block=32)
def cue_durations(chars: Slice[f32], gaps: Slice[f32], out: DisjointSlice[f32], cps: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(min(chars[i] / cps + 0.5, gaps[i]))


@tile.kernel
def fade_envelope(dur: Partition[f32], ramp: f32) -> None:
    d = dur.load()
    dur.store(tile.maximum(d - ramp * 2.0, 0.0))


@dataclass
class Act:
    name: str
    style: str                     # "cut" or "crossfade"
    chars: sk.DeviceBuffer
    gaps: sk.DeviceBuffer
    durations: sk.DeviceBuffer


class SurtitleDesk:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream
        self.pending: list[tuple[str, sk.DeviceOp]] = []
        self._prepared: dict[int, simt.PreparedLaunch] = {}
        self.faded: dict[str, sk.tile.Tensor] = {}

    def _launch_for(self, n: int) -> simt.PreparedLaunch:
        if n not in self._prepared:
            self._prepared[n] = cue_durations.prepare(simt.LaunchConfig1D.for_len(n, block=32), self.dev)
        return self._prepared[n]

    def queue(self, act: Act) -> None:
        prepared = self._launch_for(len(act.durations))
        op = cue_durations.launch_async(prepared, act.chars, act.gaps, act.durations, CHARS_PER_SECOND)
        self.pending.append((act.name, op))

    def apply_fades(self, act: Act) -> None:
        faded, _ = fade_envelope(act.durations.partition((CUE_TILE,)), FADE_SECONDS).sync_on(self.stream)
        self.faded[act.name] = faded.unpartition()

    def flush(self) -> int:
        for _name, op in self.pending:
            op.sync_on(self.stream)
        count = len(self.pending)
        self.pending.clear()
        return count


def load_act(name: str, style: str, cues: int, seed: int, stream: sk.Stream) -> Act:
    rng = np.random.default_rng(seed)
    chars = rng.integers(12, 90, cues).astype(np.float32)
    gaps = rng.uniform(3.0, 9.0, cues).astype(np.float32)
    return Act(name, style, sk.to_device(chars, stream), sk.to_device(gaps, stream), sk.zeros(cues, f32, stream))


def prepare_performance(desk: SurtitleDesk, acts: list[Act]) -> None:
    for act in acts:
        desk.queue(act)
        if act.style == "crossfade":
            desk.apply_fades(act)
    print(f"flushed {desk.flush()} acts")


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    desk = SurtitleDesk(dev, stream)
    acts = [
        load_act("Act I", "cut", 48, 1, stream),
        load_act("Act II", "crossfade", 64, 2, stream),
        load_act("Act III", "cut", 40, 3, stream),
    ]
    prepare_performance(desk, acts)
    for act in acts:
        times = desk.faded[act.name].to_numpy(stream) if act.name in desk.faded else act.durations.to_numpy(stream)
        print(f"{act.name:8s} {len(times):3d} cues, total {times.sum():6.1f} s, shortest {times.min():4.2f} s")


if __name__ == "__main__":
    main()
