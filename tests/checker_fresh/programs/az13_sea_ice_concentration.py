# fresh-expect: clean
# fresh-note: Retrieves sea-ice concentration and weather-filters it; output_for's default allocates a fresh buffer and the reused spare is the previous day's output, never an input of the same launch, and tb19v is passed to two Slice parameters only.
"""Sea-ice concentration from passive-microwave brightness temperatures (a NASA-Team-like retrieval).

Per grid cell, the polarisation ratio PR(19) and the gradient ratio GR(37V/19V) give the ice
concentration by linear mixing between open-water and first-year-ice tie points; a weather filter
then zeroes cells whose GR says the signal is atmospheric. Daily scenes reuse last day's output
buffer once its values have been read back.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N_CELLS = 40 * 40
PR_WATER, PR_ICE = 0.28, 0.02
GR_CUTOFF = 0.05


@simt.kernel
@simt.launch_contract(block=128, requires=("len(tb19h) >= len(conc)", "len(tb19v) >= len(conc)"))
def pr_concentration(tb19v: Slice[f32], tb19h: Slice[f32], conc: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (c := conc.get_mut(idx)) is not None:
        pr = (tb19v[i] - tb19h[i]) / (tb19v[i] + tb19h[i])
        frac = (f32(PR_WATER) - pr) / f32(PR_WATER - PR_ICE)
        c.set(min(max(frac, f32(0.0)), f32(1.0)))


@simt.kernel
@simt.launch_contract(block=128, requires=("len(tb37v) >= len(out)", "len(tb19v) >= len(out)"))
def weather_filter(conc: Slice[f32], tb37v: Slice[f32], tb19v: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        gr = (tb37v[i] - tb19v[i]) / (tb37v[i] + tb19v[i])
        if gr > f32(GR_CUTOFF):
            o.set(f32(0.0))
        else:
            o.set(conc[i])


class Scene(NamedTuple):
    day: int
    tb19v: sk.DeviceBuffer
    tb19h: sk.DeviceBuffer
    tb37v: sk.DeviceBuffer


def output_for(scene: Scene, stream: sk.Stream, out: sk.DeviceBuffer | None = None) -> sk.DeviceBuffer:
    """Where a scene's filtered concentration goes: a caller's spare buffer, or a fresh one."""
    if out is None:
        return sk.zeros(len(scene.tb19v), f32, stream)
    return out


def synth_scene(day: int, rng: np.random.Generator, stream: sk.Stream) -> Scene:
    yy, xx = np.mgrid[0:40, 0:40]
    ice = np.clip((np.hypot(xx - 12, yy - 20) < 14 + day) * 0.95 + rng.normal(0, 0.03, (40, 40)), 0, 1).ravel()
    v19 = 176 + 80 * ice + rng.normal(0, 1.0, N_CELLS)
    pr = PR_WATER - ice * (PR_WATER - PR_ICE)
    h19 = v19 * (1 - pr) / (1 + pr)
    storm = np.zeros(N_CELLS)
    storm[(xx.ravel() > 32) & (yy.ravel() < 8)] = 40.0
    v37 = v19 - 4.0 + storm
    return Scene(day, *(sk.to_device(a.astype(np.float32), stream) for a in (v19, h19, v37)))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(N_CELLS, block=128)
    pr_prep = pr_concentration.prepare(cfg, dev)
    wf_prep = weather_filter.prepare(cfg, dev)
    rng = np.random.default_rng(1979)

    raw = sk.zeros(N_CELLS, f32, stream)
    spare: sk.DeviceBuffer | None = None
    for day in range(3):
        scene = synth_scene(day, rng, stream)
        dest = output_for(scene, stream, spare)
        pr_concentration.launch(pr_prep, stream, scene.tb19v, scene.tb19h, raw)
        weather_filter.launch(wf_prep, stream, raw, scene.tb37v, scene.tb19v, dest)
        conc = dest.to_numpy(stream)
        extent_km2 = float(np.count_nonzero(conc > 0.15)) * 25.0 * 25.0
        area_km2 = float(conc[conc > 0.15].sum()) * 25.0 * 25.0
        print(f"day {scene.day}: extent {extent_km2:,.0f} km2, area {area_km2:,.0f} km2, "
              f"filtered {np.count_nonzero(raw.to_numpy(stream) - conc > 0.5)} cells")
        spare = dest


if __name__ == "__main__":
    main()
