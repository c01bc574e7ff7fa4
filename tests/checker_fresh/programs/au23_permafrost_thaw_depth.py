# fresh-expect: E0499 at line 49
# fresh-note: Permafrost active-layer thaw depth; the scratch pool caches buffers by length only, so the depth and anomaly outputs requested for one launch are the same buffer.
"""Active-layer thaw depth and anomaly flags from borehole temperature strings."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BOREHOLES = 80


@simt.kernel
@simt.launch_contract(block=16)
def thaw(degree_days: Slice[f32], moisture: Slice[f32], depth: DisjointSlice[f32],
         anomaly: DisjointSlice[f32], normal_m: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    d = f32(0.03) * (degree_days[i] / (moisture[i] + f32(0.1))) ** f32(0.5)
    if (o := depth.get_mut(idx)) is not None:
        o.set(d)
    if (a := anomaly.get_mut(thread.index_1d())) is not None:
        a.set(d - normal_m)


class ScratchPool:
    """Reuses device buffers across seasons so the field laptop does not thrash its allocator."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._free: dict[int, sk.DeviceBuffer] = {}
        self.allocations = 0

    def take(self, n: int) -> sk.DeviceBuffer:
        if n not in self._free:
            self._free[n] = sk.zeros(n, f32, self.stream)
            self.allocations += 1
        return self._free[n]


def season(site: str, pool: ScratchPool, prepared, dd: np.ndarray, moisture: np.ndarray) -> dict:
    stream = pool.stream
    depth = pool.take(len(dd))
    anomaly = pool.take(len(dd))
    thaw.launch(prepared, stream, sk.to_device(dd, stream), sk.to_device(moisture, stream), depth, anomaly, 0.9)
    deep = anomaly.to_numpy(stream) > 0.25
    return {"site": site, "mean_depth": float(depth.to_numpy(stream).mean()), "flagged": int(deep.sum())}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(29)
    pool = ScratchPool(stream)
    prepared = thaw.prepare(simt.LaunchConfig1D.for_len(BOREHOLES, block=16), dev)
    reports = []
    for site, warmth in (("Utqiagvik", 700.0), ("Yakutsk", 1300.0), ("Svalbard", 500.0)):
        dd = rng.normal(warmth, 120.0, BOREHOLES).clip(0).astype(np.float32)
        moisture = rng.uniform(0.2, 0.6, BOREHOLES).astype(np.float32)
        reports.append(season(site, pool, prepared, dd, moisture))
    for r in sorted(reports, key=lambda r: r["mean_depth"], reverse=True):
        print(f"{r['site']:<10} {r['mean_depth']:.2f} m, {r['flagged']} boreholes flagged")
    print("buffers allocated:", pool.allocations)


if __name__ == "__main__":
    main()
