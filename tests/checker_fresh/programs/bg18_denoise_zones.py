# fresh-expect: clean
# fresh-note: Same denoiser, but exposure() first calls self.finish(), consuming the pending op before moving self.out into the tile meter.
"""Temporal video denoiser (SIMT, async) with a tile-track auto-exposure meter over the denoised frame."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

H, W = 16, 64
N = H * W
TILE = 128
ALPHA = 0.25


@simt.kernel
@simt.launch_contract(block=128)
def temporal_denoise(prev: Slice[f32], cur: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(prev[i] + alpha * (cur[i] - prev[i]))


@tile.kernel
def zone_means(zones: Partition[f32], frame: Tensor[f32]) -> None:
    chunk = frame.partition((TILE,)).load((tile.bid(0),))
    zones.store(tile.sum(chunk, axis=0, keepdims=True) / TILE)


class Denoiser:
    def __init__(self, dev: sk.Device, stream: sk.Stream, first: np.ndarray) -> None:
        self.stream = stream
        self.prep = temporal_denoise.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
        self.prev = sk.to_device(first, stream)
        self.out = sk.zeros(N, f32, stream)
        self.pending: sk.DeviceOp | None = None

    def submit(self, frame: sk.DeviceBuffer) -> None:
        self.pending = temporal_denoise.launch_async(self.prep, self.prev, frame, self.out, ALPHA)

    def finish(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def exposure(self) -> float:
        self.finish()
        zones = tile.zeros((N // TILE,), f32).partition((1,))
        zones, self.out = zone_means(zones, self.out).sync_on(self.stream)
        return float(zones.unpartition().to_numpy(self.stream).max())

    def advance(self) -> None:
        self.prev, self.out = self.out, self.prev


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(30)
    scene = np.linspace(0.2, 0.8, N, dtype=np.float32)
    frames = [(scene + 0.05 * rng.standard_normal(N)).astype(np.float32) for _ in range(5)]
    den = Denoiser(dev, stream, frames[0])
    expected = frames[0].copy()
    levels = []
    for k, frame in enumerate(frames[1:]):
        den.submit(sk.to_device(frame, stream))
        try:
            if k % 2 == 0:
                levels.append(den.exposure())
        finally:
            den.finish()
        expected = expected + np.float32(ALPHA) * (frame - expected)
        np.testing.assert_allclose(den.out.to_numpy(stream), expected, rtol=1e-5, atol=1e-6)
        den.advance()
    noise = float(np.std(den.prev.to_numpy(stream) - scene))
    print(f"denoised {len(frames)} frames: residual noise {noise:.4f}, zone peaks {np.round(levels, 3)}")


if __name__ == "__main__":
    main()
