# fresh-expect: clean
# fresh-note: a lidar pipeline keeps a range-correction launch_async pending inside a contextlib.contextmanager (synced in finally) while the with-body only does host work, and hands the corrected buffer to a tile launch after the block.
"""Range correction and height projection for one lidar sweep.

Raw ranges get a per-sensor offset and scale correction on the SIMT track; while that runs, the host works
out the beam elevation angles.  After the correction has been synchronized, a tile kernel projects the
corrected ranges to point heights.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 128
TILE = 128
MOUNT_HEIGHT = 1.8


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(raw) >= len(ranges)",))
def correct_ranges(raw: Slice[f32], ranges: DisjointSlice[f32], offset: f32, scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := ranges.get_mut(idx)) is not None:
        out.set(max(raw[i] * scale + offset, f32(0.0)))


@tile.kernel
def project_height(height: Partition[f32], ranges: Tensor[f32], sin_elev: Tensor[f32], mount: f32) -> None:
    height.store(mount + tile.load_like(ranges, height) * tile.load_like(sin_elev, height))


@contextlib.contextmanager
def in_flight(raw: sk.DeviceBuffer, out: sk.DeviceBuffer, prepared, stream: sk.Stream,
              offset: float, scale: float) -> Iterator[sk.DeviceBuffer]:
    op = correct_ranges.launch_async(prepared, raw, out, offset, scale)
    try:
        yield out
    finally:
        op.sync_on(stream)


def beam_elevations(channels: int, azimuths: int) -> np.ndarray:
    elev = np.radians(np.linspace(-15.0, 15.0, channels, dtype=np.float32))
    return np.repeat(elev, azimuths)


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(8)
    channels, azimuths = 16, 90
    n = channels * azimuths
    raw_host = rng.uniform(2.0, 60.0, n).astype(np.float32)
    offset, scale = -0.05, 1.003

    prepared = correct_ranges.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), device)
    raw = sk.to_device(raw_host, stream)
    corrected = sk.zeros(n, f32, stream)
    with in_flight(raw, corrected, prepared, stream, offset, scale) as pending_ranges:
        sin_elev = np.sin(beam_elevations(channels, azimuths)).astype(np.float32)
        ground_mask = sin_elev < 0
    heights, corrected, *_ = project_height(
        tile.zeros((n,), f32).partition((TILE,)), pending_ranges, tile.from_numpy(sin_elev), MOUNT_HEIGHT
    ).sync_on(stream)
    z = heights.unpartition().to_numpy(stream)
    want_r = np.maximum(raw_host * np.float32(scale) + np.float32(offset), 0)
    np.testing.assert_allclose(corrected.to_numpy(stream), want_r, rtol=1e-6)
    np.testing.assert_allclose(z, np.float32(MOUNT_HEIGHT) + want_r * sin_elev, rtol=1e-5, atol=1e-5)
    below = int((z[ground_mask] < 0).sum())
    print(f"projected {n} returns; {below} of {int(ground_mask.sum())} downward beams hit below the mount plane")


if __name__ == "__main__":
    main()
