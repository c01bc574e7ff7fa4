# fresh-expect: E0499 at line 45
# fresh-known-miss: cli,mypy late-binding closures (lambda: self.buffers[ch] registered in a loop) called through a dict: both return the last item; closures over a loop variable are not followed
"""Split interleaved stereo PCM into per-channel buffers for a mixing console.

Output buffers are resolved lazily through `sinks`, a dict of zero-argument callables keyed
by channel index, so a routing table can later redirect a channel without touching callers.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 512
CHANNELS = ("left", "right")


@simt.kernel
@simt.launch_contract(block=128)
def deinterleave(pcm: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := left.get_mut(idx)) is not None:
        lo.set(pcm[2 * i])
    jdx = thread.index_1d()
    if (ro := right.get_mut(jdx)) is not None:
        ro.set(pcm[2 * i + 1])


class Console:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.buffers = [sk.zeros(FRAMES, f32, stream) for _ in CHANNELS]
        self.sinks: dict[int, Callable[[], sk.DeviceBuffer]] = {}
        for ch in range(len(CHANNELS)):
            self.sinks[ch] = lambda: self.buffers[ch]

    def ingest(self, prepared, pcm: sk.DeviceBuffer) -> None:
        deinterleave.launch(prepared, self.stream, pcm, self.sinks[0](), self.sinks[1]())

    def levels(self) -> dict[str, float]:
        return {name: float(np.abs(self.buffers[i].to_numpy(self.stream)).max()) for i, name in enumerate(CHANNELS)}


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    t = np.arange(FRAMES, dtype=np.float32) / 8000.0
    stereo = np.empty(2 * FRAMES, np.float32)
    stereo[0::2] = 0.8 * np.sin(2 * np.pi * 440.0 * t)
    stereo[1::2] = 0.3 * np.sin(2 * np.pi * 220.0 * t)
    console = Console(stream)
    prepared = deinterleave.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=128), dev)
    console.ingest(prepared, sk.to_device(stereo, stream))
    for name, peak in console.levels().items():
        print(f"{name:>5}: peak {peak:.3f}")


if __name__ == "__main__":
    main()
