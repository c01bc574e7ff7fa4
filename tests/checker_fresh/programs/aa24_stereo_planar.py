# fresh-expect: E0499 at line 62
# fresh-note: found since: view bounds compared as affine expressions at the call (channel(0) and channel(1) of self.buf[start:last + 1] overlap by one element), the generator expression unpacked per iteration, the classmethod returning cls(...) an object of the dataclass with a device field
"""Stereo audio: convert interleaved L/R frames into one planar buffer (all left samples, then all right).

The planar buffer is allocated once with a little guard space at the end; each channel is a view into it, and a
SIMT kernel writes both channel views in one pass.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 256
GUARD = 8


@simt.kernel
@simt.launch_contract(block=128)
def split_stereo(interleaved: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    k = idx.get()
    if 2 * k + 1 < len(interleaved):
        r = interleaved[2 * k + 1]
        if (o := left.get_mut(idx)) is not None:
            o.set(interleaved[2 * k])
        idx2 = thread.index_1d()
        if (p := right.get_mut(idx2)) is not None:
            p.set(r)


@dataclass
class Planar:
    buf: sk.DeviceBuffer
    frames: int
    channels: int = 2

    @classmethod
    def allocate(cls, frames: int, stream: sk.Stream) -> "Planar":
        return cls(sk.zeros(2 * frames + GUARD, f32, stream), frames)

    def channel(self, c: int) -> sk.DeviceBuffer:
        if not 0 <= c < self.channels:
            raise IndexError(c)
        start = c * self.frames
        last = start + self.frames
        return self.buf[start:last + 1]


def split_channels(samples: np.ndarray, dev: sk.Device, stream: sk.Stream) -> np.ndarray:
    frames = len(samples) // 2
    planar = Planar.allocate(frames, stream)
    interleaved = sk.to_device(samples, stream)
    left, right = (planar.channel(c) for c in range(2))
    prep = split_stereo.prepare(simt.LaunchConfig1D.for_len(frames, block=128), dev)
    split_stereo.launch(prep, stream, interleaved, left, right)
    return planar.buf.to_numpy(stream)[: 2 * frames].reshape(2, frames)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    t = np.arange(FRAMES, dtype=np.float32)
    stereo = np.empty(2 * FRAMES, np.float32)
    stereo[0::2] = np.sin(t / 8)
    stereo[1::2] = np.cos(t / 8)
    lr = split_channels(stereo, dev, stream)
    print("L rms", float(np.sqrt((lr[0] ** 2).mean())), "R rms", float(np.sqrt((lr[1] ** 2).mean())))


if __name__ == "__main__":
    main()
