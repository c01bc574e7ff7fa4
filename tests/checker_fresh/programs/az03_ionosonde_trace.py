# fresh-expect: E0505 at line 62
# fresh-note: Converts ionosonde echo delays to virtual heights with launch_async and clips the trace in a tile kernel; heights is partitioned (moved) into the tile launch while the pending launch_async op returned with it still writes it.
"""Ionogram scaling: echo delays to virtual heights, then a clipped h'(f) trace per sounding.

A vertical-incidence sounder sweeps 1-16 MHz; for each frequency step the strongest echo's
round-trip delay is converted to a virtual height h' = c * t / 2 on the device (SIMT), and the
trace is clipped to the physically plausible E/F-region band by a small tile kernel.
"""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

C_KM_PER_US = 0.299792458
N_FREQ = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=128, requires=("len(delay_us) >= len(h_virtual)", "len(snr_db) >= len(h_virtual)"))
def virtual_height(delay_us: Slice[f32], snr_db: Slice[f32], h_virtual: DisjointSlice[f32], min_snr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := h_virtual.get_mut(idx)) is not None:
        if snr_db[i] >= min_snr:
            out.set(f32(0.5 * C_KM_PER_US) * delay_us[i])
        else:
            out.set(f32(0.0))


@tile.kernel
def clip_trace(h: Partition[f32]) -> None:
    t = h.load()
    h.store(tile.where(t > 0.0, tile.minimum(tile.maximum(t, 90.0), 750.0), 0.0))


def start_sounding(prep: simt.PreparedLaunch, stream: sk.Stream, delays: np.ndarray, snr: np.ndarray,
                   min_snr: float = 6.0) -> tuple[sk.DeviceOp, sk.DeviceBuffer]:
    d = sk.to_device(delays.astype(np.float32), stream)
    s = sk.to_device(snr.astype(np.float32), stream)
    heights = sk.zeros(len(delays), f32, stream)
    return virtual_height.launch_async(prep, d, s, heights, min_snr), heights


def synthetic_sounding(rng: np.random.Generator, fo_f2: float) -> tuple[np.ndarray, np.ndarray]:
    freq = np.linspace(1.0, 16.0, N_FREQ)
    h_true = np.where(freq < 3.2, 110.0, 220.0 + 180.0 / np.sqrt(np.clip(1 - (freq / fo_f2) ** 2, 0.02, 1)))
    delay = 2.0 * h_true / C_KM_PER_US + rng.normal(0, 4.0, N_FREQ)
    snr = np.where(freq < fo_f2, 18.0, -3.0) + rng.normal(0, 3.0, N_FREQ)
    return delay, snr


def scale_ionogram(stream: sk.Stream, prep: simt.PreparedLaunch, delays: np.ndarray,
                   snr: np.ndarray) -> np.ndarray | None:
    if np.count_nonzero(snr > 6.0) < 8:
        return None
    pending, heights = start_sounding(prep, stream, delays, snr)
    clipped = clip_trace(heights.partition((TILE,)))
    pending.sync_on(stream)
    (trace,) = clipped.sync_on(stream)
    return trace.unpartition().to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = virtual_height.prepare(simt.LaunchConfig1D.for_len(N_FREQ, block=128), dev)
    rng = np.random.default_rng(2024)
    freq = np.linspace(1.0, 16.0, N_FREQ)
    for hour, fo_f2 in enumerate((4.1, 6.8, 9.3)):
        delays, snr = synthetic_sounding(rng, fo_f2)
        trace = scale_ionogram(stream, prep, delays, snr)
        if trace is None:
            print(f"{hour:02d}h: spread-F or absorption, not scaled")
            continue
        echoes = trace > 0
        top = freq[echoes].max() if echoes.any() else float("nan")
        print(f"{hour:02d}h: foF2 ~ {top:.2f} MHz, h'F min {trace[echoes & (freq > 3.2)].min():.0f} km")


if __name__ == "__main__":
    main()
