# fresh-expect: E0382 at line 63
# fresh-note: Max-pressure signal control that piggybacks a one-off detector calibration op on the queue update with zip inside the cycle loop, so the second cycle zips the already consumed calibration op.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

INTERSECTIONS = 32
TILE = (16, 4)
SAT_FLOW = 6.0


@tile.kernel
def queue_update(q_next: Partition[f32], q: Tensor[f32], arrivals: Tensor[f32], green: Tensor[f32], sat: f32) -> None:
    served = tile.load_like(green, q_next) * sat
    q_next.store(tile.maximum(tile.load_like(q, q_next) + tile.load_like(arrivals, q_next) - served, 0.0))


@tile.kernel
def max_pressure(green: Partition[f32], q: Tensor[f32]) -> None:
    t = tile.load_like(q, green)
    lane = tile.reshape(tile.iota(4, i32), (1, 4))
    ns_lane = tile.where(lane % 2 == 0, 1.0, 0.0)
    ns = tile.sum(t * ns_lane, axis=1, keepdims=True)
    ew = tile.sum(t, axis=1, keepdims=True) - ns
    green.store(tile.where(ns >= ew, ns_lane, 1.0 - ns_lane))


@tile.kernel
def detector_gain(gain: Partition[f32], raw: Tensor[f32], manual: Tensor[f32]) -> None:
    r = tile.load_like(raw, gain)
    gain.store(tile.where(r > 0.0, tile.load_like(manual, gain) / tile.maximum(r, 1e-3), 1.0))


def fresh(shape_tile: tuple[int, int] = TILE) -> sk.DeviceOp:
    return tile.zeros((INTERSECTIONS, 4), f32).partition(shape_tile)


class Corridor:
    def __init__(self, stream: sk.Stream, rng: np.random.Generator) -> None:
        self.stream = stream
        self.rng = rng
        self.q, self.green = (
            tile.from_numpy(rng.uniform(0, 10, (INTERSECTIONS, 4)).astype(np.float32))
            .zip(tile.from_numpy(np.tile(np.float32([1, 0, 1, 0]), (INTERSECTIONS, 1))))
            .sync_on(stream)
        )
        self.gain = np.ones((INTERSECTIONS, 4), np.float32)

    def demand(self, cycle: int) -> np.ndarray:
        base = np.float32([3.0, 2.0, 3.5, 1.5]) * (1.0 + 0.2 * np.sin(cycle / 3.0))
        return (self.rng.poisson(base, (INTERSECTIONS, 4)) * self.gain).astype(np.float32)

    def control(self, cycles: int, raw_counts: np.ndarray, manual_counts: np.ndarray) -> list[float]:
        calib = detector_gain(fresh(), tile.from_numpy(raw_counts), tile.from_numpy(manual_counts))
        delays = []
        for cycle in range(cycles):
            upd = queue_update(fresh(), self.q, tile.from_numpy(self.demand(cycle)), self.green, SAT_FLOW)
            (q_next, _q, _arr, _green, _sat), (gain, *_counts) = upd.zip(calib).sync_on(self.stream)
            self.gain = gain.unpartition().to_numpy(self.stream)
            green, self.q = max_pressure(fresh(), q_next.unpartition()).sync_on(self.stream)
            self.green = green.unpartition()
            delays.append(float(self.q.to_numpy(self.stream).sum()))
        return delays


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(30)
    raw = rng.uniform(5.0, 15.0, (INTERSECTIONS, 4)).astype(np.float32)
    manual = (raw * rng.uniform(0.9, 1.1, raw.shape)).astype(np.float32)
    corridor = Corridor(stream, rng)
    delays = corridor.control(6, raw, manual)
    print("total queued vehicles per cycle:", [round(d, 1) for d in delays])


if __name__ == "__main__":
    main()
