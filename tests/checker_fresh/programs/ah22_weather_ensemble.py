# fresh-expect: clean
# fresh-note: an ensemble forecast queues one launch_async per rain threshold, each returning its new indicator buffer with the pending op, and the reduction loop synchronizes each op before handing its buffer to a tile launch.
"""Exceedance probabilities of an ensemble precipitation forecast over a ladder of thresholds.

For every threshold an indicator (member value above the threshold) is computed for every member and grid
point on the SIMT track, all thresholds queued at once; a tile reduction then sums the indicators in
chunks.  The probabilities are checked against numpy.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 256
CHUNK = 512


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(rain) >= len(flags)",))
def exceeds(rain: Slice[f32], flags: DisjointSlice[f32], threshold: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := flags.get_mut(idx)) is not None:
        hit = f32(0.0)
        if rain[i] > threshold:
            hit = f32(1.0)
        out.set(hit)


@tile.kernel
def chunk_sums(partial: Partition[f32], values: Tensor[f32]) -> None:
    chunk = values.load((tile.bid(0),), (CHUNK,))
    partial.store(tile.reshape(tile.sum(chunk), (1,)))


class Ensemble:
    def __init__(self, members: int, points: int, device: sk.Device, stream: sk.Stream) -> None:
        self.size = members * points
        self.stream = stream
        self.prepared = exceeds.prepare(simt.LaunchConfig1D.for_len(self.size, block=BLOCK), device)

    def start(self, rain: sk.DeviceBuffer, threshold: float) -> tuple[sk.DeviceBuffer, sk.DeviceOp]:
        flags = sk.zeros(self.size, f32, self.stream)
        return flags, exceeds.launch_async(self.prepared, rain, flags, threshold)

    def fraction(self, flags: sk.DeviceBuffer) -> float:
        chunks = -(-self.size // CHUNK)
        partial, _ = chunk_sums(tile.zeros((chunks,), f32).partition((1,)), flags).sync_on(self.stream)
        return float(partial.unpartition().to_numpy(self.stream).sum()) / self.size


def simulate_members(members: int, points: int, seed: int = 8) -> np.ndarray:
    rng = np.random.default_rng(seed)
    wet = rng.random((members, points)) < 0.55
    amount = rng.gamma(0.8, 6.0, (members, points))
    return np.where(wet, amount, 0.0).astype(np.float32)


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    members, points = 20, 250
    rain_host = simulate_members(members, points)
    rain = sk.to_device(rain_host.ravel(), stream)
    ensemble = Ensemble(members, points, device, stream)
    thresholds = (1.0, 5.0, 10.0, 25.0)
    jobs = {thr: ensemble.start(rain, thr) for thr in thresholds}
    probability = {}
    for thr, (flags, pending) in jobs.items():
        pending.sync_on(stream)
        probability[thr] = ensemble.fraction(flags)
    for thr, p in probability.items():
        assert abs(p - float((rain_host > np.float32(thr)).mean())) < 1e-6
        print(f"P(rain > {thr:5.1f} mm) = {p:.3f}")


if __name__ == "__main__":
    main()
