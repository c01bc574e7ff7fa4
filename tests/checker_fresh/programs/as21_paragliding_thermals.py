# fresh-expect: clean
# fresh-note: Paragliding launch-site picker; each site's thermal-lift launch_async is prefetched only after the current site was judged, so the early `break` never leaves an op unrun.
"""Pick the first launch site on the list whose thermals carry a paraglider above the ridge."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 256                # 100 m cells around each take-off
MIN_CLIMB_MS = 1.2
SINK_RATE_MS = 1.1         # the wing's own sink


class Site(NamedTuple):
    name: str
    ground_c: np.ndarray
    air_c: float
    wind_ms: float


@simt.kernel
@simt.launch_contract(block=128)
def thermal_lift(ground: Slice[f32], lift: DisjointSlice[f32], air: f32, wind: f32, sink: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := lift.get_mut(idx)) is not None:
        excess = ground[i] - air
        if excess < 0.0:
            excess = f32(0.0)
        updraft = (excess * 9.81 * 120.0 / (air + 273.15)) ** 0.5
        out.set(updraft / (1.0 + 0.15 * wind) - sink)


class SitePicker:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = thermal_lift.prepare(simt.LaunchConfig1D.for_len(CELLS, block=128), dev)
        self.checked: list[tuple[str, float]] = []

    def _start(self, site: Site) -> tuple[sk.DeviceBuffer, sk.DeviceOp]:
        ground = sk.to_device(site.ground_c.astype(np.float32), self.stream)
        lift = sk.zeros(CELLS, f32, self.stream)
        return lift, thermal_lift.launch_async(self.prepared, ground, lift, site.air_c, site.wind_ms, SINK_RATE_MS)

    def pick(self, sites: list[Site]) -> Site | None:
        lift, op = self._start(sites[0])
        for k, site in enumerate(sites):
            op.sync_on(self.stream)
            climb = float(np.percentile(lift.to_numpy(self.stream), 90))
            self.checked.append((site.name, climb))
            if climb >= MIN_CLIMB_MS and site.wind_ms < 8.0:
                return site
            if k + 1 < len(sites):
                lift, op = self._start(sites[k + 1])     # the next site on the drive
        return None


def ground_field(seed: int, sunny: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    patches = rng.gamma(2.0, sunny, CELLS)
    return 14.0 + patches


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    sites = [
        Site("north_ridge", ground_field(1, 0.8), 15.0, 9.5),
        Site("quarry_bowl", ground_field(2, 1.5), 14.5, 3.0),
        Site("vineyard_hill", ground_field(3, 3.0), 15.5, 4.5),
        Site("lake_edge", ground_field(4, 2.0), 13.0, 2.0),
    ]
    picker = SitePicker(dev, stream)
    chosen = picker.pick(sites)
    for name, climb in picker.checked:
        print(f"{name:14s} 90th-percentile climb {climb:+.2f} m/s")
    print("launch at:", chosen.name if chosen else "nowhere today, go to the cafe")


if __name__ == "__main__":
    main()
