# fresh-expect: W0003 at line 49
# fresh-note: Theatre lighting console that runs cue crossfades as async SIMT launches; for a cue marked hold the go method returns early after building the crossfade op, which is dropped without ever running.
"""Stage lighting: a cue stack crossfading dimmer channel levels between looks."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
CHANNELS = 192


@simt.kernel
@simt.launch_contract(block=BLOCK)
def crossfade(current: Slice[f32], target: Slice[f32], out: DisjointSlice[f32], progress: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(current[i] + (target[i] - current[i]) * progress)


@dataclass
class Cue:
    number: float
    label: str
    look: np.ndarray
    fade_s: float = 3.0
    hold: bool = False


class Console:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.live = sk.zeros(CHANNELS, f32, stream)
        self.preset = sk.zeros(CHANNELS, f32, stream)
        self._prepared = crossfade.prepare(simt.LaunchConfig1D.for_len(CHANNELS, block=BLOCK), dev)
        self.history: list[float] = []

    def go(self, cue: Cue, elapsed_s: float) -> np.ndarray:
        target = sk.to_device(cue.look.astype(np.float32), self.stream)
        progress = min(elapsed_s / cue.fade_s, 1.0) if cue.fade_s > 0 else 1.0
        fade = crossfade.launch_async(self._prepared, self.live, target, self.preset, progress)
        if cue.hold:
            print(f"cue {cue.number}: {cue.label} held by the stage manager")
            return self.live.to_numpy(self.stream)
        fade.sync_on(self.stream)
        self.live, self.preset = self.preset, self.live
        self.history.append(cue.number)
        return self.live.to_numpy(self.stream)


def look(channels: dict[range, float]) -> np.ndarray:
    levels = np.zeros(CHANNELS, np.float32)
    for span, level in channels.items():
        levels[span.start : span.stop] = level
    return levels


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    console = Console(dev, stream)
    stack = [
        Cue(1.0, "house to half", look({range(0, 32): 0.5})),
        Cue(2.0, "preshow wash", look({range(0, 32): 0.1, range(64, 128): 0.7}), fade_s=5.0),
        Cue(2.5, "sunrise special", look({range(128, 160): 1.0}), hold=True),
        Cue(3.0, "act one", look({range(64, 128): 0.85, range(160, 192): 0.4}), fade_s=8.0),
    ]
    for cue in stack:
        levels = console.go(cue, elapsed_s=cue.fade_s)
        print(f"cue {cue.number}: {cue.label:16s} {int((levels > 0.05).sum())} channels up")
    print("cues run:", console.history)


if __name__ == "__main__":
    main()
