# fresh-expect: clean
# fresh-note: Max-pressure corridor control that zips the detector calibration into the first cycle's sync only, then chains the queue update into the pressure kernel with then() every cycle.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

INTERSECTIONS = 48
TILE = (16, 4)
SAT_FLOW = 5.0


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
    green.store(tile.where(ns >= tile.sum(t, axis=1, keepdims=True) - ns, ns_lane, 1.0 - ns_lane))


@tile.kernel
def detector_gain(gain: Partition[f32], raw: Tensor[f32], manual: Tensor[f32]) -> None:
    r = tile.load_like(raw, gain)
    gain.store(tile.where(r > 0.0, tile.load_like(manual, gain) / tile.maximum(r, 1e-3), 1.0))


def blank() -> sk.DeviceOp:
    return tile.zeros((INTERSECTIONS, 4), f32).partition(TILE)


def cycle_op(q: tile.Tensor, green: tile.Tensor, arrivals: np.ndarray) -> sk.DeviceOp:
    upd = queue_update(blank(), q, tile.from_numpy(arrivals), green, SAT_FLOW)
    return upd.then(lambda res: max_pressure(blank(), res[0].unpartition()))


def run_corridor(stream: sk.Stream, rng: np.random.Generator, cycles: int, raw: np.ndarray,
                 manual: np.ndarray) -> list[float]:
    q, green = tile.from_numpy(np.full((INTERSECTIONS, 4), 4.0, np.float32)).zip(
        tile.from_numpy(np.tile(np.float32([0, 1, 0, 1]), (INTERSECTIONS, 1)))).sync_on(stream)
    calib: sk.DeviceOp | None = detector_gain(blank(), tile.from_numpy(raw), tile.from_numpy(manual))
    gain = np.ones((INTERSECTIONS, 4), np.float32)
    queued = []
    for cycle in range(cycles):
        base = np.float32([2.5, 2.0, 3.0, 2.2]) * (1.0 + 0.3 * np.cos(cycle / 2.0))
        arrivals = (rng.poisson(base, (INTERSECTIONS, 4)) * gain).astype(np.float32)
        op = cycle_op(q, green, arrivals)
        if calib is not None:
            (green_p, q), (gain_p, *_inputs) = op.zip(calib).sync_on(stream)
            gain = gain_p.unpartition().to_numpy(stream)
            calib = None
        else:
            green_p, q = op.sync_on(stream)
        green = green_p.unpartition()
        queued.append(float(q.to_numpy(stream).sum()))
    return queued


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(31)
    raw = rng.uniform(5.0, 15.0, (INTERSECTIONS, 4)).astype(np.float32)
    manual = (raw * rng.uniform(0.85, 1.05, raw.shape)).astype(np.float32)
    queued = run_corridor(stream, rng, 6, raw, manual)
    print("vehicles queued after each cycle:", [round(v, 1) for v in queued])


if __name__ == "__main__":
    main()
