# fresh-expect: clean
# fresh-note: Typhoon track ensemble; one `.shared()` steering-flow op is read by every member's tile launch and the member ops are run together through `sk.zip`.
"""A small typhoon-track ensemble: each member advects the storm latitude under a perturbed steering flow."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

POINTS = 256          # forecast points along the track (3-hourly)
TILE = 64
STEER_GAIN = 0.12


@tile.kernel
def advect(track: Partition[f32], lat: Tensor[f32], steer: Tensor[f32], bias: f32) -> None:
    drift = tile.load_like(steer, track) * STEER_GAIN + bias
    track.store(tile.load_like(lat, track) + tile.cumsum(drift, axis=0))


@dataclass(frozen=True)
class Member:
    label: str
    bias: float
    seed: int

    def initial_latitudes(self) -> np.ndarray:
        rng = np.random.default_rng(self.seed)
        return (14.5 + rng.normal(0.0, 0.05, POINTS)).astype(np.float32)


def members(count: int, spread: float) -> Iterator[Member]:
    for k in range(count):
        offset = (k - count // 2) * spread
        yield Member(label=f"m{k:02d}", bias=offset, seed=100 + k)


def steering_field(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    ridge = np.sin(np.linspace(0.0, 3.0 * np.pi, POINTS))
    return (0.4 * ridge + rng.normal(0.0, 0.05, POINTS)).astype(np.float32)


def run_ensemble(ensemble: list[Member], stream: sk.Stream) -> dict[str, np.ndarray]:
    steer = tile.from_numpy(steering_field(7)).shared()
    ops = [
        advect(tile.zeros((POINTS,), f32).partition((TILE,)), tile.from_numpy(m.initial_latitudes()), steer, m.bias)
        for m in ensemble
    ]
    finished = sk.zip(*ops).sync_on(stream)
    tracks: dict[str, np.ndarray] = {}
    for member, (track, _lat, _steer, _bias) in zip(ensemble, finished):
        tracks[member.label] = track.unpartition().to_numpy(stream)
    return tracks


def landfall_index(track: np.ndarray, coast_lat: float) -> int | None:
    crossed = np.nonzero(track >= coast_lat)[0]
    return int(crossed[0]) if crossed.size else None


def summarize(tracks: dict[str, np.ndarray], coast_lat: float) -> None:
    hits = {}
    for label, track in tracks.items():
        idx = landfall_index(track, coast_lat)
        if idx is None:
            continue
        hits[label] = idx * 3
    share = len(hits) / len(tracks)
    print(f"{len(hits)}/{len(tracks)} members reach {coast_lat} N ({share:.0%})")
    if hits:
        earliest = min(hits, key=hits.get)
        print(f"earliest landfall: {earliest} at +{hits[earliest]} h")
    spread = np.std([t[-1] for t in tracks.values()])
    print(f"final latitude spread: {spread:.2f} deg")


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    ensemble = list(members(9, spread=0.004))
    tracks = run_ensemble(ensemble, stream)
    summarize(tracks, coast_lat=16.0)


if __name__ == "__main__":
    main()
