# fresh-expect: clean
# fresh-note: only host work runs inside the `decoded` block; the depth buffer is partitioned for `clip_to_range` after the block, once the context manager has synced the decode.
"""Depth-camera front end for a warehouse AMR: decode raw 16-bit depth, clip to the trusted range, and
report the nearest obstacle per frame.

Decoding is queued asynchronously so that the host can parse the frame's metadata (exposure, timestamps,
IMU sync) while the device works; `decoded(...)` is a context manager that waits for the decode when the
block ends.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u16
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

H, W = 12, 16
PIXELS = H * W
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def decode_depth(raw: Slice[u16], scale: f32, depth: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (d := depth.get_mut(idx)) is not None:
        d.set(f32(raw[i]) * scale)


@tile.kernel
def clip_to_range(depth: Partition[f32], near: f32, far: f32) -> None:
    d = depth.load()
    depth.store(tile.where((d < near) | (d > far), 0.0, d))


@dataclass
class FrameMeta:
    seq: int
    exposure_us: int
    stamp_ns: int


@dataclass
class DepthFrame:
    meta: FrameMeta
    raw: np.ndarray


class DepthDecoder:
    def __init__(self, dev: sk.Device, stream: sk.Stream, scale: float = 0.001) -> None:
        self.stream = stream
        self.scale = scale
        self.prepared = decode_depth.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=64), dev)

    def start(self, raw: np.ndarray) -> tuple[sk.DeviceOp, sk.DeviceBuffer]:
        raw_d = sk.to_device(raw.astype(np.uint16).ravel(), self.stream)
        depth = sk.zeros(PIXELS, f32, self.stream)
        return decode_depth.launch_async(self.prepared, raw_d, self.scale, depth), depth


@contextmanager
def decoded(decoder: DepthDecoder, frame: DepthFrame) -> Iterator[sk.DeviceBuffer]:
    op, depth = decoder.start(frame.raw)
    try:
        yield depth
    finally:
        op.sync_on(decoder.stream)


class NearestObstacle:
    def __init__(self, dev: sk.Device, stream: sk.Stream, near: float = 0.2, far: float = 6.0) -> None:
        self.decoder = DepthDecoder(dev, stream)
        self.stream = stream
        self.near, self.far = near, far
        self.latency_ms: list[float] = []

    def clip(self, depth: sk.DeviceBuffer) -> np.ndarray:
        (parts, _near, _far) = clip_to_range(depth.partition((TILE,)), self.near, self.far).sync_on(self.stream)
        return parts.unpartition().to_numpy(self.stream)

    def process(self, frame: DepthFrame) -> float:
        with decoded(self.decoder, frame) as depth:
            self.latency_ms.append((frame.meta.stamp_ns % 1_000_000_000) / 1e6)  # host work overlaps the decode
        clipped = self.clip(depth)  # the decode has finished once the block is left
        valid = clipped[clipped > 0.0]
        return float(valid.min()) if valid.size else float("inf")


def frames(count: int, seed: int = 4) -> Iterator[DepthFrame]:
    rng = np.random.default_rng(seed)
    for seq in range(count):
        mm = rng.integers(2500, 5000, (H, W)).astype(np.uint16)
        mm[4:8, 6:10] = 1500 - 150 * seq  # a pallet getting closer
        mm[0, :3] = 0  # no return
        mm[-1, -2:] = 9000  # beyond the trusted range
        yield DepthFrame(FrameMeta(seq, 800, 1_000_000 * seq + 33_000), mm)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    det = NearestObstacle(dev, stream)
    nearest = [det.process(f) for f in frames(5)]
    assert all(b < a for a, b in zip(nearest, nearest[1:])), nearest
    assert abs(nearest[0] - 1.5) < 1e-6
    print("nearest obstacle per frame (m):", ", ".join(f"{d:.2f}" for d in nearest))


if __name__ == "__main__":
    main()
