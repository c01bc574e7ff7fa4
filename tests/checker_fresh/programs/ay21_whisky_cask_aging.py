# fresh-expect: E0502 at line 61
# fresh-note: Whisky cask profiles ping-pong through a maxlen=2 deque, but non-winter seasons do `ring.append(dst)` instead of rotating, which leaves the same buffer in both slots so the next season's launch reads and writes it.
"""Whisky maturation: congener and wood-extract profile per cask through warehouse seasons.

Two state buffers ping-pong in a two-slot ring (collections.deque with maxlen=2): each
season reads ring[0] and writes ring[1], then the ring advances. Dunnage and racked
warehouses age at different rates, and the angels' share evaporates every season.
"""
from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CASKS = 96
SEASONS = ("spring", "summer", "autumn", "winter")
YEARS = 3


@simt.kernel
@simt.launch_contract(block=32)
def mature(prev: Slice[f32], oak: Slice[f32], nxt: DisjointSlice[f32], extraction: f32, angels: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (c := nxt.get_mut(idx)) is not None:
        uptake = extraction * oak[i] * (1.0 - prev[i] / 100.0)
        c.set((prev[i] + uptake) * (1.0 + angels))


SEASON_EXTRACTION = {"spring": 1.2, "summer": 2.6, "autumn": 1.0, "winter": 0.3}


def warehouse_rates(kind: str, season: str) -> tuple[float, float]:
    base = SEASON_EXTRACTION[season]
    if kind == "dunnage":
        return base * 0.8, 0.004
    return base * 1.1, 0.007


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1824)

    oak = sk.to_device(rng.uniform(0.6, 1.4, CASKS).astype(np.float32), stream)  # first-fill vs refill
    ring: deque[sk.DeviceBuffer] = deque(
        [sk.to_device(np.full(CASKS, 5.0, np.float32), stream), sk.zeros(CASKS, f32, stream)], maxlen=2
    )
    prepared = mature.prepare(simt.LaunchConfig1D.for_len(CASKS, block=32), dev)
    kind = "dunnage"

    for year in range(YEARS):
        for season in SEASONS:
            extraction, angels = warehouse_rates(kind, season)
            src, dst = ring[0], ring[1]
            mature.launch(prepared, stream, src, oak, dst, extraction, -angels)
            if season == "winter":
                ring.rotate(1)
            else:
                ring.append(dst)  # keep the freshest profile at the front for the next season
        profile = ring[0].to_numpy(stream)
        print(f"year {year + 1}: mean extract {profile.mean():5.2f}, best cask {int(np.argmax(profile))}")
        kind = "racked" if year == 0 else kind

    final = ring[0].to_numpy(stream)
    print(f"bottling: {int((final > 20.0).sum())} of {CASKS} casks above 20 units")


if __name__ == "__main__":
    main()
