# fresh-expect: clean
# fresh-note: an ocean tracer relaxation loop carries a NamedTuple state rebuilt with _replace from every handle the launches hand back, and keeps its best-so-far profile as a host copy rather than as a state object.
"""Relaxation of a passive ocean tracer towards a climatology, on the tile track.

Each step nudges the concentration towards the climatological profile and adds a surface source that
decays with time.  The loop stops when the profile stops changing; the profile closest to the climatology
seen along the way is kept for the report.
"""

from __future__ import annotations

from typing import Annotated, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 128
BLOCK = 128
RELAX = 0.08


@tile.kernel
def nudge(out: Partition[f32], conc: Tensor[f32], clim: Tensor[f32], rate: f32) -> None:
    c = tile.load_like(conc, out)
    out.store(c + rate * (tile.load_like(clim, out) - c))


@tile.autotune(configs=[tile.Config(BLOCK=128), tile.Config(BLOCK=512)], key=["conc"], warmup=1, rep=2)
@tile.kernel
def add_source(out: Annotated[Partition[f32], tile.Dims(BLOCK)], conc: Tensor[f32], source: Tensor[f32], w: f32) -> None:
    out.store(tile.load_like(conc, out) + w * tile.load_like(source, out))


class Ocean(NamedTuple):
    conc: tile.Tensor
    clim: tile.Tensor
    source: tile.Tensor
    day: int


def advance(ocean: Ocean, stream: sk.Stream) -> Ocean:
    n = ocean.conc.shape[0]
    relaxed, _old, clim, _ = nudge(tile.zeros((n,), f32).partition((TILE,)), ocean.conc, ocean.clim, RELAX).sync_on(
        stream
    )
    weight = float(np.exp(-ocean.day / 15.0))
    conc, _relaxed, source, _ = add_source(tile.zeros((n,), f32), relaxed.unpartition(), ocean.source, weight).sync_on(
        stream
    )
    return ocean._replace(conc=conc, clim=clim, source=source, day=ocean.day + 1)


def misfit(ocean: Ocean, stream: sk.Stream) -> float:
    return float(np.sqrt(np.mean((ocean.conc.to_numpy(stream) - ocean.clim.to_numpy(stream)) ** 2)))


def summary(label: str, profile: np.ndarray) -> str:
    return f"{label}: surface={profile[0]:.3f} deep={profile[-1]:.3f} mean={profile.mean():.3f}"


def main() -> None:
    stream = sk.Device.default().new_stream()
    depth = 800
    z = np.linspace(0.0, 1.0, depth, dtype=np.float32)
    ocean = Ocean(
        conc=tile.from_numpy(np.full(depth, 0.2, np.float32)).sync_on(stream),
        clim=tile.from_numpy((1.0 - 0.7 * z).astype(np.float32)).sync_on(stream),
        source=tile.from_numpy(np.exp(-z / 0.05).astype(np.float32)).sync_on(stream),
        day=0,
    )
    best_profile, best_misfit = ocean.conc.to_numpy(stream), misfit(ocean, stream)
    previous = best_profile
    while True:
        ocean = advance(ocean, stream)
        current = ocean.conc.to_numpy(stream)
        m = misfit(ocean, stream)
        if m < best_misfit:
            best_profile, best_misfit = current.copy(), m
        if float(np.abs(current - previous).max()) < 1e-4 or ocean.day >= 365:
            break
        previous = current
    print(summary(f"closest to climatology (rms {best_misfit:.4f})", best_profile))
    print(summary(f"day {ocean.day}", ocean.conc.to_numpy(stream)))


if __name__ == "__main__":
    main()
