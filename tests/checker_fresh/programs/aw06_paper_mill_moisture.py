# fresh-expect: clean
# fresh-note: A paper-mill web line dispatches press/dryer tile kernels through a match with guards, and every arm rebinds both the web partition and the zone profile from sync_on.
"""Paper mill moisture profile: press and dryer zones update the web's moisture tensor, dispatched by a match."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

WIDTH = 192
TILE = 64


@tile.kernel
def press(moisture: Partition[f32], nip: Tensor[f32], squeeze: f32) -> None:
    m = moisture.load()
    moisture.store(m - m * tile.load_like(nip, moisture) * squeeze)


@tile.kernel
def dry(moisture: Partition[f32], steam: Tensor[f32], rate: f32) -> None:
    m = moisture.load()
    moisture.store(tile.maximum(m - tile.load_like(steam, moisture) * rate, 0.05))


@dataclass
class Zone:
    name: str
    kind: str
    strength: float
    profile: Tensor


class WebLine:
    def __init__(self, stream: sk.Stream, start_moisture: float) -> None:
        self.stream = stream
        self.web = tile.full((WIDTH,), start_moisture, f32).sync_on(stream).partition((TILE,))
        self.zones: dict[str, Zone] = {}
        self.log: list[str] = []

    def add_zone(self, name: str, kind: str, strength: float) -> None:
        cross = np.linspace(0.8, 1.0, WIDTH, dtype=np.float32)
        cross = np.minimum(cross, cross[::-1] + 0.2)
        self.zones[name] = Zone(name, kind, strength, tile.from_numpy(cross).sync_on(self.stream))

    def run_zone(self, zone: Zone) -> None:
        match zone.kind:
            case "press" if zone.strength > 0.5:
                self.web, zone.profile, _ = press(self.web, zone.profile, 0.5).sync_on(self.stream)
                self.log.append(f"{zone.name}: press capped")
            case "press":
                self.web, zone.profile, _ = press(self.web, zone.profile, zone.strength).sync_on(self.stream)
                self.log.append(f"{zone.name}: press")
            case "dryer" | "yankee":
                self.web, zone.profile, _ = dry(self.web, zone.profile, zone.strength).sync_on(self.stream)
                self.log.append(f"{zone.name}: dry")
            case other:
                self.log.append(f"{zone.name}: unknown kind {other!r}, skipped")

    def mean_moisture(self) -> float:
        return float(self.web.to_numpy(self.stream).mean())


def main() -> None:
    line = WebLine(sk.Device.default().new_stream(), start_moisture=0.8)
    for name, kind, strength in [("press-1", "press", 0.3), ("press-2", "press", 0.7),
                                 ("can-1", "dryer", 0.05), ("yankee", "yankee", 0.08), ("calender", "calender", 0.0)]:
        line.add_zone(name, kind, strength)
    for sweep in range(3):
        for zone in line.zones.values():
            line.run_zone(zone)
        print(f"sweep {sweep}: moisture {line.mean_moisture():.3f}")
    print("\n".join(line.log[-5:]))


if __name__ == "__main__":
    main()
