# fresh-expect: E0499 at line 51
# (fixed: a @classmethod alternate constructor returning cls(left=buf, right=buf) gives the fields of the object it builds)
"""Audio decoder: split interleaved PCM into left/right channels, with a mono fallback for single-channel files."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 600


@simt.kernel
@simt.launch_contract(block=128, requires=("len(pcm) >= 2 * len(left)",))
def deinterleave(pcm: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (l := left.get_mut(idx)) is not None:
        l.set(pcm[2 * i])
    ridx = thread.index_1d()
    if (r := right.get_mut(ridx)) is not None:
        r.set(pcm[2 * i + 1])


@dataclass
class StereoTrack:
    left: sk.DeviceBuffer
    right: sk.DeviceBuffer
    channels: int = 2

    @classmethod
    def allocate(cls, frames: int, stream: sk.Stream) -> "StereoTrack":
        return cls(sk.zeros(frames, f32, stream), sk.zeros(frames, f32, stream))

    @classmethod
    def mono(cls, frames: int, stream: sk.Stream) -> "StereoTrack":
        buf = sk.zeros(frames, f32, stream)
        return cls(left=buf, right=buf, channels=1)


def decode(pcm_host: np.ndarray, channels: int, dev: sk.Device, stream: sk.Stream) -> StereoTrack:
    frames = len(pcm_host) // 2
    track = StereoTrack.allocate(frames, stream) if channels == 2 else StereoTrack.mono(frames, stream)
    pcm = sk.to_device(pcm_host, stream)
    prepared = deinterleave.prepare(simt.LaunchConfig1D.for_len(frames, block=128), dev)
    deinterleave.launch(prepared, stream, pcm, track.left, track.right)
    return track


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    t = np.arange(2 * FRAMES, dtype=np.float32)
    for channels in (2, 1):
        track = decode(np.sin(t / 50.0).astype(np.float32), channels, dev, stream)
        print(f"{channels}ch: left rms {float(np.sqrt(np.square(track.left.to_numpy(stream)).mean())):.3f}")


if __name__ == "__main__":
    main()
