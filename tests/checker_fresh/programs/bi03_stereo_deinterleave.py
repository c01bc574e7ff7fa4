# fresh-expect: E0499 at line 73
# fresh-note: Stereo deinterleaver whose `allocate_buses` uses `dict.fromkeys(BUS_NAMES, sk.zeros(...))`, so every bus is one buffer and `split` passes it as both the `left` and `right` DisjointSlice outputs.
"""Split interleaved stereo frames into left/right buses, then derive mid/side buses.

Audio arrives interleaved (L0 R0 L1 R1 ...).  A `StereoSession` owns one output buffer per bus; the buses are
allocated up front by `allocate_buses` and looked up by name when the kernels of the routing table run.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
BUS_NAMES = ("left", "right", "mid", "side")


@simt.kernel
@simt.launch_contract(block=BLOCK)
def deinterleave(frames: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if 2 * i + 1 < len(frames):
        if (lo := left.get_mut(idx)) is not None:
            lo.set(frames[2 * i])
        second = thread.index_1d()
        if (ro := right.get_mut(second)) is not None:
            ro.set(frames[2 * i + 1])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def mid_side(left: Slice[f32], right: Slice[f32], mid: DisjointSlice[f32], side: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (m := mid.get_mut(idx)) is not None:
        m.set(0.5 * (left[i] + right[i]))
    again = thread.index_1d()
    if (s := side.get_mut(again)) is not None:
        s.set(0.5 * (left[i] - right[i]))


def allocate_buses(frames_per_channel: int, stream: sk.Stream) -> dict[str, sk.DeviceBuffer]:
    # one zero-initialised buffer per bus name
    return dict.fromkeys(BUS_NAMES, sk.zeros(frames_per_channel, f32, stream))


class StereoSession:
    def __init__(self, dev: sk.Device, stream: sk.Stream, interleaved: np.ndarray) -> None:
        self.dev = dev
        self.stream = stream
        self.frames = sk.to_device(interleaved.astype(np.float32), stream)
        self.per_channel = interleaved.shape[0] // 2
        self.buses = allocate_buses(self.per_channel, stream)
        cfg = simt.LaunchConfig1D.for_len(self.per_channel, block=BLOCK)
        self.split_launch = deinterleave.prepare(cfg, dev)
        self.ms_launch = mid_side.prepare(cfg, dev)

    def __enter__(self) -> StereoSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.buses.clear()

    def split(self) -> None:
        deinterleave.launch(self.split_launch, self.stream, self.frames, self.buses["left"], self.buses["right"])

    def encode_mid_side(self) -> None:
        b = self.buses
        mid_side.launch(self.ms_launch, self.stream, b["left"], b["right"], b["mid"], b["side"])

    def routing(self) -> Iterator[tuple[str, Callable[[], None]]]:
        yield "split", self.split
        yield "mid/side", self.encode_mid_side

    def read(self, name: str) -> np.ndarray:
        return self.buses[name].to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 600
    t = np.arange(n, dtype=np.float32)
    left = np.sin(0.03 * t).astype(np.float32)
    right = (0.5 * np.cos(0.07 * t)).astype(np.float32)
    interleaved = np.empty(2 * n, np.float32)
    interleaved[0::2], interleaved[1::2] = left, right
    with StereoSession(dev, stream, interleaved) as session:
        for label, step in session.routing():
            step()
            print("ran", label)
        np.testing.assert_allclose(session.read("left"), left, rtol=1e-6)
        np.testing.assert_allclose(session.read("right"), right, rtol=1e-6)
        np.testing.assert_allclose(session.read("mid"), 0.5 * (left + right), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(session.read("side"), 0.5 * (left - right), rtol=1e-5, atol=1e-6)
    print("stereo split ok")


if __name__ == "__main__":
    main()
