# fresh-expect: E0499 at line 53
# fresh-note: Stereo deinterleave into a guarded planar buffer: channel_view() strides channels by frames instead of frames + GUARD, so the left and right views overlap by one sample and both are mutable outputs of one launch.
"""Stereo deinterleave into a guarded planar buffer, then a linear-interpolation resampler per channel."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 400
GUARD = 1  # one sample of lookahead past each channel for the interpolator
RATIO = 1.5  # 48 kHz -> 32 kHz


@simt.kernel
@simt.launch_contract(block=128)
def deinterleave(src: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    j = min(i, len(src) // 2 - 1)  # the guard repeats the last frame
    if (l := left.get_mut(idx)) is not None:
        l.set(src[2 * j])
    if (r := right.get_mut(thread.index_1d())) is not None:
        r.set(src[2 * j + 1])


@simt.kernel
@simt.launch_contract(block=128)
def resample(src: Slice[f32], dst: DisjointSlice[f32], ratio: f32) -> None:
    idx = thread.index_1d()
    pos = f32(idx.get()) * ratio
    k = i32(pos)
    frac = pos - f32(k)
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[k] * (1.0 - frac) + src[k + 1] * frac)


def channel_view(planar: sk.DeviceBuffer, c: int, frames: int) -> sk.DeviceBuffer:
    start = c * frames
    return planar[start : start + frames + GUARD]


def resample_stereo(interleaved: np.ndarray, dev: sk.Device, stream: sk.Stream) -> list[np.ndarray]:
    frames = interleaved.size // 2
    planar = sk.zeros(2 * (frames + GUARD), f32, stream)
    src = sk.to_device(interleaved, stream)
    split = deinterleave.prepare(simt.LaunchConfig1D.for_len(frames + GUARD, block=128), dev)
    left, right = channel_view(planar, 0, frames), channel_view(planar, 1, frames)
    deinterleave.launch(split, stream, src, left, right)
    n_out = int((frames - 1) / RATIO) + 1
    rs = resample.prepare(simt.LaunchConfig1D.for_len(n_out, block=128), dev)
    outs = []
    for chan in (left, right):
        dst = sk.zeros(n_out, f32, stream)
        resample.launch(rs, stream, chan, dst, RATIO)
        outs.append(dst.to_numpy(stream))
    return outs


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(2)
    t = np.arange(FRAMES) / 48_000
    left = np.sin(2 * np.pi * 440 * t)
    right = 0.5 * np.sin(2 * np.pi * 660 * t) + 0.01 * rng.standard_normal(FRAMES)
    interleaved = np.stack([left, right], axis=1).astype(np.float32).ravel()
    outs = resample_stereo(interleaved, dev, stream)
    grid = np.arange(outs[0].size) * RATIO
    for got, ch in zip(outs, (left, right)):
        np.testing.assert_allclose(got, np.interp(grid, np.arange(FRAMES), ch.astype(np.float32)), atol=1e-5)
    print(f"resampled {FRAMES} stereo frames to {outs[0].size} at ratio {RATIO}")


if __name__ == "__main__":
    main()
