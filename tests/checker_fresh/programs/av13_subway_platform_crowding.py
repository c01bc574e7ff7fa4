# fresh-expect: W0003 at line 45
# fresh-note: Subway platform crowding update that builds each platform's tile launch before a match on the line status; the `suspended` arm just continues, dropping the already-built op unrun (and the crowd tensor moved into it).
"""Rush-hour platform crowding across a metro network, one tile launch per platform."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ZONES = 1024      # waiting zones along each platform edge
TILE = 128


@tile.kernel
def crowd_step(crowd: Partition[f32], arrivals: Tensor[f32], boarding: f32) -> None:
    c = crowd.load()
    a = tile.load_like(arrivals, crowd)
    crowd.store(tile.maximum(c + a - boarding, 0.0))


@dataclass
class Platform:
    name: str
    status: str
    boarding: float
    crowd: object  # a tile Tensor op of ZONES waiting densities

    def tiles(self):
        return self.crowd.partition((TILE,))


def arrivals_for(name: str, minute: int) -> sk.DeviceOp:
    rng = np.random.default_rng(sum(map(ord, name)) * 100 + minute)
    return tile.from_numpy(rng.gamma(2.0, 0.4, ZONES).astype(np.float32))


def rush_minute(platforms: list[Platform], minute: int, stream: sk.Stream) -> dict[str, float]:
    peaks: dict[str, float] = {}
    for plat in platforms:
        op = crowd_step(plat.tiles(), arrivals_for(plat.name, minute), plat.boarding)
        match plat.status:
            case "suspended":
                continue  # no trains are calling: nobody boards
            case "express" | "local":
                crowd, _arrivals, _boarding = op.sync_on(stream)
                peaks[plat.name] = float(crowd.to_numpy(stream).max())
    return peaks


def main() -> None:
    stream = sk.Device.default().new_stream()
    platforms = [
        Platform("Central/1", "express", 1.2, tile.full((ZONES,), 0.5, f32)),
        Platform("Harbour/2", "suspended", 0.0, tile.full((ZONES,), 0.8, f32)),
        Platform("Museum/1", "local", 0.6, tile.full((ZONES,), 0.3, f32)),
    ]
    peaks = rush_minute(platforms, minute=17, stream=stream)
    for name, peak in sorted(peaks.items(), key=lambda kv: -kv[1]):
        print(f"{name:>10}: peak density {peak:.2f} p/m^2")


if __name__ == "__main__":
    main()
