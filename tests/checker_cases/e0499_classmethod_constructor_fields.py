"""A `@classmethod` alternate constructor (`return cls(left=buf, right=buf)`, or `return Track(...)` naming the
class) gives an object whose two fields are one buffer: launching with both as outputs is E0499, where the runtime
refuses the two mutable borrows of one buffer.  A `@staticmethod` factory is followed the same way, and so is an
argument the caller cannot name (`Track.shared(sk.zeros(n))`, `twice(sk.zeros(n))` of `return buf, buf`): each
field or item naming the parameter is that one new object."""

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
        return cls(left=buf, right=buf, channels=1)

    @staticmethod
    def shared(buf: sk.DeviceBuffer) -> Track:
        return Track(buf, buf, 1)


def twice(buf: sk.DeviceBuffer) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    return buf, buf


def decode(src: sk.DeviceBuffer, channels: int, prepared: simt.PreparedLaunch, stream: sk.Stream) -> Track:
    track = Track.stereo(64, stream) if channels == 2 else Track.mono(64, stream)
    split.launch(prepared, stream, src, track.left, track.right)  # expect: E0499
    return track


def reuse(src: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    buf = sk.zeros(64, f32, stream)
    track = Track.shared(buf)
    split.launch(prepared, stream, src, track.left, track.right)  # expect: E0499


def reuse_new(src: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    track = Track.shared(sk.zeros(64, f32, stream))
    split.launch(prepared, stream, src, track.left, track.right)  # expect: E0499


def unpacked(src: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    left, right = twice(sk.zeros(64, f32, stream))
    split.launch(prepared, stream, src, left, right)  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    prepared = split.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    for run in (
        lambda: decode(src, 2, prepared, stream),
        lambda: decode(src, 1, prepared, stream),
        lambda: reuse(src, prepared, stream),
        lambda: reuse_new(src, prepared, stream),
        lambda: unpacked(src, prepared, stream),
    ):
        try:
            run()
        except sk.AliasingError as err:
            print("AliasingError:", err)


if __name__ == "__main__":
    main()
