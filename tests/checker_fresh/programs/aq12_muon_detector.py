# fresh-expect: clean
# fresh-note: Muon tomography: a @contextmanager starts the SIMT efficiency correction and syncs its op in `finally`; the opacity tile kernel moves the corrected rate buffers only after both `with` blocks have ended (clean twin of the neutron monitor).
"""Muon tomography of a volcano flank: open-sky normalisation of scintillator hit rates per pixel.

A generator-based context manager starts the SIMT efficiency correction of a run and synchronises it when the
`with` block ends; the opacity estimate (a tile kernel) is launched only after the block, on the corrected rates.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

PIXELS = 32 * 32
TILE = 256


@simt.kernel
@simt.launch_contract(block=128)
def efficiency(hits: Slice[f32], eff: Slice[f32], rate: DisjointSlice[f32], exposure_h: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := rate.get_mut(idx)) is not None:
        r.set(hits[i] / (max(eff[i], f32(0.05)) * exposure_h))


@tile.kernel
def opacity(out: Partition[f32], target_rate: Tensor[f32], sky_rate: Tensor[f32]) -> None:
    t = tile.load_like(target_rate, out)
    s = tile.load_like(sky_rate, out)
    out.store(-tile.log(tile.maximum(t, 1e-3) / tile.maximum(s, 1e-3)))


@contextmanager
def corrected(hits: np.ndarray, eff: sk.DeviceBuffer, hours: float, device: sk.Device,
              stream: sk.Stream) -> Iterator[sk.DeviceBuffer]:
    raw = sk.to_device(hits.astype(np.float32), stream)
    rate = sk.zeros(PIXELS, f32, stream)
    prepared = efficiency.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=128), device)
    op = efficiency.launch_async(prepared, raw, eff, rate, hours)
    try:
        yield rate
    finally:
        op.sync_on(stream)


def simulate_hits(rng: np.random.Generator, eff: np.ndarray, hours: float, rock: np.ndarray) -> np.ndarray:
    flux = 70.0 * np.exp(-rock)  # muons per pixel-hour that survive the rock
    return rng.poisson(flux * eff * hours).astype(np.float32)


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    rng = np.random.default_rng(2011)
    eff_host = rng.uniform(0.6, 0.95, PIXELS).astype(np.float32)
    eff = sk.to_device(eff_host, stream)
    yy, xx = np.mgrid[0:32, 0:32]
    rock = np.where(yy > 12 + 0.3 * xx, 2.5 + 0.02 * (yy - 12), 0.0).ravel()
    with corrected(simulate_hits(rng, eff_host, 48.0, np.zeros(PIXELS)), eff, 48.0, device, stream) as sky:
        print("open-sky calibration run started")
    with corrected(simulate_hits(rng, eff_host, 720.0, rock), eff, 720.0, device, stream) as target:
        print("target run started")
    out = tile.zeros((PIXELS,), f32).partition((TILE,))
    out, target, sky = opacity(out, target, sky).sync_on(stream)
    length = out.unpartition().to_numpy(stream).reshape(32, 32)
    print(f"mean opacity under the summit {length[20:, :].mean():.2f}, open sky {length[:5, :].mean():.2f}")
    print(f"sky rate check: {sky.to_numpy(stream).mean():.1f} muons per pixel-hour")


if __name__ == "__main__":
    main()
