"""`@classmethod` and `@staticmethod` alternate constructors that give each field its own buffer
(`return cls(left=a, right=b)`, `return Track(a, b, 1)`): launching with both fields as outputs is fine on every
path, and the runtime runs it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split(src: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (lo := left.get_mut(thread.index_1d())) is not None:
        lo.set(src[i])
    if (hi := right.get_mut(thread.index_1d())) is not None:
        hi.set(src[i] * 2.0)


@dataclass
class Track:
    left: sk.DeviceBuffer
    right: sk.DeviceBuffer
    channels: int = 2

    @classmethod
    def stereo(cls, n: int, stream: sk.Stream) -> Track:
        return cls(sk.zeros(n, f32, stream), sk.zeros(n, f32, stream))

    @classmethod
    def mono(cls, n: int, stream: sk.Stream) -> Track:
        buf = sk.zeros(n, f32, stream)
        return cls(left=buf, right=sk.zeros(n, f32, stream), channels=1)

    @staticmethod
    def shared(buf: sk.DeviceBuffer, other: sk.DeviceBuffer) -> Track:
        return Track(buf, other, 1)


def both(buf: sk.DeviceBuffer, other: sk.DeviceBuffer) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    return buf, other


def decode(src: sk.DeviceBuffer, channels: int, prepared: simt.PreparedLaunch, stream: sk.Stream) -> Track:
    track = Track.stereo(64, stream) if channels == 2 else Track.mono(64, stream)
    split.launch(prepared, stream, src, track.left, track.right)
    return track


def reuse(src: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    track = Track.shared(sk.zeros(64, f32, stream), sk.zeros(64, f32, stream))
    split.launch(prepared, stream, src, track.left, track.right)


def unpacked(src: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    left, right = both(sk.zeros(64, f32, stream), sk.zeros(64, f32, stream))
    split.launch(prepared, stream, src, left, right)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    prepared = split.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    decode(src, 2, prepared, stream)
    decode(src, 1, prepared, stream)
    reuse(src, prepared, stream)
    unpacked(src, prepared, stream)
    print("ok")


if __name__ == "__main__":
    main()
