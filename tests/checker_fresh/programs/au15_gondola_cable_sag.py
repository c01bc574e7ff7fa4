# fresh-expect: E0505 at line 57
# fresh-note: Gondola lift cable sag monitoring; the `sag_window` context manager yields the sag buffer while its launch_async op is still pending (it syncs only in `finally`), and the block partitions that buffer for the tile envelope kernel.
"""Cable sag monitoring between the towers of an alpine gondola lift."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SPANS = 64


@simt.kernel
@simt.launch_contract(block=32)
def catenary_sag(span_m: Slice[f32], tension_kn: Slice[f32], sag: DisjointSlice[f32], weight: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (s := sag.get_mut(idx)) is not None:
        s.set(weight * span_m[i] * span_m[i] / (f32(8.0) * tension_kn[i]))


@tile.kernel
def clearance(margin: Partition[f32], sag: Partition[f32], ground: Tensor[f32]) -> None:
    margin.store(tile.load_like(ground, margin) - sag.load())


@contextmanager
def sag_window(prepared, stream: sk.Stream, span: sk.DeviceBuffer, tension: sk.DeviceBuffer,
               sag: sk.DeviceBuffer, weight: float) -> Iterator[sk.DeviceBuffer]:
    op = catenary_sag.launch_async(prepared, span, tension, sag, weight)
    try:
        yield sag
    finally:
        op.sync_on(stream)


class LiftMonitor:
    def __init__(self, dev: sk.Device, stream: sk.Stream, spans: np.ndarray, ground: np.ndarray) -> None:
        self.stream = stream
        self.span = sk.to_device(spans, stream)
        self.ground = ground
        self.prepared = catenary_sag.prepare(simt.LaunchConfig1D.for_len(SPANS, block=32), dev)
        self.alerts: list[int] = []

    def check(self, tension: np.ndarray, cabin_load: float) -> float:
        sag = sk.zeros(SPANS, f32, self.stream)
        with sag_window(self.prepared, self.stream, self.span, sk.to_device(tension, self.stream), sag,
                        0.08 + cabin_load) as ready:
            parts = ready.partition((32,))
            margin = tile.zeros((SPANS,), f32).partition((32,))
            margin, parts, _ = clearance(margin, parts, tile.from_numpy(self.ground)).sync_on(self.stream)
        values = margin.unpartition().to_numpy(self.stream)
        self.alerts.extend(np.flatnonzero(values < 3.0).tolist())
        return float(values.min())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(6)
    monitor = LiftMonitor(dev, stream, rng.uniform(80, 240, SPANS).astype(np.float32),
                          rng.uniform(12, 30, SPANS).astype(np.float32))
    for hour, load in enumerate((0.02, 0.05, 0.09)):
        tension = rng.uniform(140, 180, SPANS).astype(np.float32)
        print(f"hour {hour}: minimum clearance {monitor.check(tension, load):.2f} m")
    print("spans to inspect:", sorted(set(monitor.alerts)))


if __name__ == "__main__":
    main()
