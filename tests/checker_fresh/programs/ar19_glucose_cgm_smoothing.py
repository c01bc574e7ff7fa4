# fresh-expect: clean
# fresh-note: continuous glucose monitor smoothing; the kernel reads its thread index before get_mut consumes the witness and takes a fresh witness for the trend output, with per-warp sums accumulated atomically, all driven through a closure factory.
from __future__ import annotations

from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread, warp

SAMPLES = 192  # 16 hours at 5-minute resolution
WARP = 32


@simt.kernel
@simt.launch_contract(block=32)
def smooth_cgm(raw: Slice[f32], smooth: DisjointSlice[f32], trend: DisjointSlice[f32],
               hourly: AtomicSlice[f32], window: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    lo = max(i - window + 1, 0)
    acc = f32(0.0)
    for k in range(lo, i + 1):
        acc += raw[k]
    mean = acc / f32(i + 1 - lo)
    if (s := smooth.get_mut(idx)) is not None:
        s.set(mean)
    slope = (raw[i] - raw[lo]) / f32(max(i - lo, 1))
    if (t := trend.get_mut(thread.index_1d())) is not None:
        t.set(slope * f32(12.0))  # mg/dL per hour
    total = warp.reduce_sum(raw[i])
    if thread.lane_id() == 0:
        hourly.fetch_add(i // 32, total / f32(32.0))


def make_smoother(dev: sk.Device, stream: sk.Stream, window: int) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    plan = smooth_cgm.prepare(simt.LaunchConfig1D.for_len(SAMPLES, block=32), dev)

    def run(readings: np.ndarray) -> dict[str, np.ndarray]:
        raw = sk.to_device(readings.astype(np.float32), stream)
        out = {name: sk.zeros(n, f32, stream) for name, n in [("smooth", SAMPLES), ("trend", SAMPLES),
                                                              ("hourly", SAMPLES // WARP)]}
        smooth_cgm.launch(plan, stream, raw, out["smooth"], out["trend"], out["hourly"], window)
        return {name: buf.to_numpy(stream) for name, buf in out.items()}

    return run


def alerts(result: dict[str, np.ndarray], low: float = 70.0, falling: float = -30.0) -> list[int]:
    sm, tr = result["smooth"], result["trend"]
    return [k for k in range(SAMPLES) if sm[k] < low + 15.0 and tr[k] < falling]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(55)
    t = np.arange(SAMPLES) * 5.0 / 60.0
    meals = 60.0 * np.exp(-((t - 1.0) ** 2) / 0.3) + 70.0 * np.exp(-((t - 7.0) ** 2) / 0.4)
    readings = 110.0 + meals - 1.5 * t + rng.normal(0, 4, SAMPLES)
    for window in (3, 6):
        result = make_smoother(dev, stream, window)(readings)
        assert np.allclose(result["hourly"], readings.reshape(-1, WARP).mean(axis=1), atol=1e-2)
        print(f"window {window}: min {result['smooth'].min():.0f} mg/dL, "
              f"steepest fall {result['trend'].min():.0f} mg/dL/h, alerts at {alerts(result)[:4]}")


if __name__ == "__main__":
    main()
