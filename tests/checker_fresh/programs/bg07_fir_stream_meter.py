# fresh-expect: E0505 at line 51
# fresh-note: A generator yields (out, launch_async FIR op) per audio frame and the consumer meters loudness with a tile launch (inside loudness()) before syncing the op, moving a buffer the pending FIR still borrows.
"""Streaming FIR low-pass over audio frames with a tile-track loudness meter on each filtered frame."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

FRAME = 256
TILE = 64
TAPS = np.array([0.1, 0.2, 0.4, 0.2, 0.1], dtype=np.float32)


@simt.kernel
@simt.launch_contract(block=64)
def fir5(frame: Slice[f32], taps: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(len(taps)):
            if i >= k:
                acc += taps[k] * frame[i - k]
        o.set(acc)


@tile.kernel
def tile_energy(energy: Partition[f32], x: Tensor[f32]) -> None:
    chunk = x.partition((TILE,)).load((tile.bid(0),))
    energy.store(tile.sum(chunk * chunk, axis=0, keepdims=True))


def filtered(frames: list[np.ndarray], taps: sk.DeviceBuffer, prep: simt.PreparedLaunch,
             stream: sk.Stream) -> Iterator[tuple[sk.DeviceBuffer, sk.DeviceOp]]:
    for frame in frames:
        raw = sk.to_device(frame, stream)
        out = sk.zeros(FRAME, f32, stream)
        yield out, fir5.launch_async(prep, raw, taps, out)


def loudness(buf: sk.DeviceBuffer, stream: sk.Stream) -> tuple[sk.DeviceBuffer, float]:
    energy = tile.zeros((FRAME // TILE,), f32).partition((1,))
    energy, buf = tile_energy(energy, buf).sync_on(stream)
    return buf, float(np.sqrt(energy.unpartition().to_numpy(stream).sum() / FRAME))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)
    t = np.arange(4 * FRAME) / 8000.0
    signal = (np.sin(2 * np.pi * 300 * t) + 0.5 * rng.standard_normal(t.size)).astype(np.float32)
    frames = [signal[k * FRAME:(k + 1) * FRAME] for k in range(4)]
    taps = sk.to_device(TAPS, stream)
    prep = fir5.prepare(simt.LaunchConfig1D.for_len(FRAME, block=64), dev)
    levels = []
    for k, (out, pending) in enumerate(filtered(frames, taps, prep, stream)):
        out, level = loudness(out, stream)
        pending.sync_on(stream)
        want = np.convolve(frames[k], TAPS)[:FRAME]
        np.testing.assert_allclose(out.to_numpy(stream), want, rtol=1e-4, atol=1e-5)
        levels.append(level)
    raw_rms = [float(np.sqrt(np.mean(f * f))) for f in frames]
    for k, (lv, raw) in enumerate(zip(levels, raw_rms)):
        print(f"frame {k}: rms {raw:.3f} -> {lv:.3f} after low-pass")


if __name__ == "__main__":
    main()
