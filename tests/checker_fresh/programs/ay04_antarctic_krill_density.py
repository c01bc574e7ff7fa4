# fresh-expect: clean
# fresh-note: Krill density diffusion ping-pongs between the two split_at halves of one arena (swapped each step), then per-transect biomass launches use disjoint literal-stride views.
"""Antarctic krill swarm density along acoustic survey transects.

Densities diffuse and drift along each transect; the two time levels live in the two halves
of one arena (split_at) and swap roles every step. Per-transect biomass is then reduced from
disjoint views of the final level.
"""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

TRANSECTS = 4
STATIONS = 48
CELLS = TRANSECTS * STATIONS
STEPS = 12
KAPPA = 0.18
DRIFT = 0.05


@simt.kernel
@simt.launch_contract(block=64, requires=("len(src) == len(dst)",))
def diffuse(src: Slice[f32], dst: DisjointSlice[f32], kappa: f32, drift: f32, stations: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        pos = i % stations
        left = src[i - 1] if pos > 0 else src[i]
        right = src[i + 1] if pos < stations - 1 else src[i]
        lap = left - 2.0 * src[i] + right
        out.set(src[i] + kappa * lap - drift * (src[i] - left))


@simt.kernel
@simt.launch_contract(block=64)
def biomass(density: Slice[f32], area: Slice[f32], grams: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (g := grams.get_mut(idx)) is not None:
        g.set(density[i] * area[i] * 0.46)


def echo_survey(rng: np.random.Generator) -> np.ndarray:
    base = rng.gamma(2.0, 3.0, CELLS).astype(np.float32)
    swarm = rng.integers(0, CELLS - 8)
    base[swarm : swarm + 8] += 40.0
    return base


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(62)

    arena = sk.zeros(2 * CELLS, f32, stream)
    cur, nxt = arena.split_at(CELLS)
    cur.copy_from_numpy(echo_survey(rng))

    step_prep = diffuse.prepare(simt.LaunchConfig1D.for_len(CELLS, block=64), dev)
    for _ in range(STEPS):
        diffuse.launch(step_prep, stream, cur, nxt, KAPPA, DRIFT, STATIONS)
        cur, nxt = nxt, cur

    area = sk.to_device(np.full(CELLS, 2.5, np.float32), stream)
    grams = sk.zeros(CELLS, f32, stream)
    mass_prep = biomass.prepare(simt.LaunchConfig1D.for_len(STATIONS, block=64), dev)
    for t in range(TRANSECTS):
        lo, hi = t * STATIONS, (t + 1) * STATIONS
        biomass.launch(mass_prep, stream, cur.view(lo, hi), area.view(lo, hi), grams.view(lo, hi))

    host = grams.to_numpy(stream).reshape(TRANSECTS, STATIONS)
    for t, row in enumerate(host):
        peak = int(np.argmax(row))
        print(f"transect {t}: {row.sum():8.1f} g/m^2, densest station {peak}")
    print("total conserved within", float(abs(cur.to_numpy(stream).sum() - nxt.to_numpy(stream).sum())))


if __name__ == "__main__":
    main()
