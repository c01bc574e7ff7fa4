# fresh-expect: E0505 at line 79
# fresh-note: Smooths otolith increment widths with a launch_async submitted through functools.partial and back-calculates length in a tile kernel; the widths buffer is moved into the tile launch while the pending smoothing op still borrows it.
"""Fish otolith daily increments: smoothing and back-calculated body length.

For each otolith an image transect gives the widths of the daily growth increments from the core
outwards. The widths are smoothed (3-point, device), and the body length on each day is
back-calculated with the Dahl-Lea relation L_i = L_capture * R_i / R_capture, where R_i is the
cumulative radius (a tile scan).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

DAYS = 128


@simt.kernel
@simt.launch_contract(block=64, requires=("len(widths) == len(smooth)",))
def smooth3(widths: Slice[f32], smooth: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(widths)
    if (o := smooth.get_mut(idx)) is not None:
        lo = max(i - 1, 0)
        hi = min(i + 1, n - 1)
        o.set((widths[lo] + widths[i] + widths[hi]) / f32(3.0))


@tile.kernel
def back_calc(length: Partition[f32], widths: Tensor[f32], mm_per_um: f32) -> None:
    radius = tile.cumsum(tile.load_like(widths, length))
    length.store(radius * mm_per_um)


@dataclass
class Otolith:
    fish_id: str
    capture_length_mm: float
    widths_um: np.ndarray


def sample_otoliths(rng: np.random.Generator) -> list[Otolith]:
    fish = []
    for k in range(3):
        day = np.arange(DAYS)
        w = 2.0 + 6.0 * np.exp(-day / 45.0) + 0.8 * np.sin(day / 9.0 + k) + rng.normal(0, 0.4, DAYS)
        fish.append(Otolith(f"SPRAT-{k:03d}", 38.0 + 4 * k, np.clip(w, 0.5, None).astype(np.float32)))
    return fish


def growth_check(smoothed: np.ndarray, stress_drop: float = 0.35) -> list[int]:
    """Days where increment width drops by more than `stress_drop` of its running level (check marks)."""
    level = np.convolve(smoothed, np.ones(7) / 7, mode="same")
    return [int(d) for d in np.flatnonzero(smoothed < (1 - stress_drop) * level) if 3 < d < DAYS - 3]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = smooth3.prepare(simt.LaunchConfig1D.for_len(DAYS, block=64), dev)
    submit = functools.partial(smooth3.launch_async, prep)

    for oto in sample_otoliths(np.random.default_rng(31)):
        widths = sk.to_device(oto.widths_um, stream)
        smoothed = sk.zeros(DAYS, f32, stream)
        pending = submit(widths, smoothed)

        r_capture = float(oto.widths_um.sum())
        scale = oto.capture_length_mm / r_capture
        lengths = tile.zeros((DAYS,), f32).partition((DAYS,))
        lengths, widths, _ = back_calc(lengths, widths, scale).sync_on(stream)
        pending.sync_on(stream)

        L = lengths.unpartition().to_numpy(stream)
        marks = growth_check(smoothed.to_numpy(stream))
        print(f"{oto.fish_id}: length at day 30 {L[29]:.1f} mm, day 90 {L[89]:.1f} mm, "
              f"capture {L[-1]:.1f} mm, check marks on days {marks[:4]}")


if __name__ == "__main__":
    main()
