# fresh-expect: clean
# fresh-note: Sensor shards are stream-compacted to their anomalous readings by a contract-less kernel run with launch_unchecked; the helper that makes the call holds its own `with simt.unsafe():` block around it.
"""Stream compaction of anomalous sensor readings: an atomic slot counter and unchecked writes (SIMT)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

SHARD = 96


@simt.kernel
def compact_above(vals: Slice[f32], threshold: f32, count: AtomicSlice[u32], out: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(vals):
        if vals[i] > threshold:
            slot = count.fetch_add(0, u32(1))
            with simt.unsafe():  # slot < len(vals) == len(out): one slot per passing reading
                out.get_unchecked_mut(int(slot)).set(vals[i])


def shards(rng: np.random.Generator, count: int) -> Iterator[tuple[str, np.ndarray]]:
    for s in range(count):
        readings = rng.normal(20.0, 2.0, SHARD).astype(np.float32)
        readings[rng.integers(0, SHARD, 4)] += 15.0
        yield f"sensor-{s}", readings


def run_compaction(cfg: simt.LaunchConfig1D, stream: sk.Stream, vals: sk.DeviceBuffer, threshold: float,
                   count: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
    with simt.unsafe():  # the grid covers `vals` exactly and `out` is as long as `vals`
        compact_above.launch_unchecked(cfg, stream, vals, threshold, count, out)


def extract_anomalies(readings: np.ndarray, threshold: float, stream: sk.Stream) -> np.ndarray:
    vals = sk.to_device(readings, stream)
    count = sk.zeros(1, u32, stream)
    out = sk.zeros(len(readings), f32, stream)
    cfg = simt.LaunchConfig1D.for_len(len(readings), block=32)
    run_compaction(cfg, stream, vals, threshold, count, out)
    n = int(count.to_numpy(stream)[0])
    return np.sort(out.to_numpy(stream)[:n])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(12)
    threshold = 30.0
    report: dict[str, list[float]] = {}
    for name, readings in shards(rng, 3):
        found = extract_anomalies(readings, threshold, stream)
        np.testing.assert_array_equal(found, np.sort(readings[readings > threshold]))
        report[name] = [round(float(v), 1) for v in found]
    total = sum(len(v) for v in report.values())
    print(f"{total} anomalies across {len(report)} sensors:", report)


if __name__ == "__main__":
    main()
