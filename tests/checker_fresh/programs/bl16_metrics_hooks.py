# fresh-expect: clean
# fresh-note: metrics hook bus whose registry gives every disabled metric its own discard sink, so with the minimal level the latency_hist launch gets two distinct AtomicSlice buffers for bins and slow.
"""Latency metrics for a model server, collected on the device through an event-hook bus.

Hooks subscribe to server events; the `batch_done` hook bins the batch's per-request latencies into device
counters with atomics.  Counters are looked up by name in a metrics registry; a metric that the current
metrics level does not enable goes to a discard sink of its own, so instrumentation never crashes the server.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from typing import Any, Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import AtomicSlice, Slice, thread

BLOCK = 64
NUM_BINS = 8
LEVELS = {"full": ("requests", "latency.bins", "latency.slow"), "minimal": ("requests",)}


@simt.kernel
@simt.launch_contract(block=BLOCK)
def latency_hist(lat_ms: Slice[f32], bins: AtomicSlice[u32], slow: AtomicSlice[u32], bin_ms: f32, slow_ms: f32) -> None:
    i = thread.index_1d().get()
    if i < len(lat_ms):
        v = lat_ms[i]
        b = min(i32(v / bin_ms), i32(len(bins) - 1))
        bins.fetch_add(b, u32(1))
        if v > slow_ms:
            slow.fetch_add(0, u32(1))


class MetricsRegistry:
    def __init__(self, level: str, stream: sk.Stream) -> None:
        self.stream = stream
        self._counters: dict[str, sk.DeviceBuffer] = {
            name: sk.zeros(NUM_BINS, u32, stream) for name in LEVELS[level]
        }
        self._discard: dict[str, sk.DeviceBuffer] = {}

    def counter(self, name: str) -> sk.DeviceBuffer:
        if name in self._counters:
            return self._counters[name]
        return self._discard.setdefault(name, sk.zeros(NUM_BINS, u32, self.stream))  # one sink per metric

    def read(self, name: str) -> np.ndarray | None:
        buf = self._counters.get(name)
        return None if buf is None else buf.to_numpy(self.stream)


class HookBus:
    def __init__(self) -> None:
        self._hooks: defaultdict[str, list[Callable[..., None]]] = defaultdict(list)

    def on(self, event: str, fn: Callable[..., None]) -> None:
        self._hooks[event].append(fn)

    def emit(self, event: str, **payload: Any) -> int:
        for fn in self._hooks[event]:
            fn(**payload)
        return len(self._hooks[event])


def record_latency(registry: MetricsRegistry, device: sk.Device, *, latencies: sk.DeviceBuffer, n: int) -> None:
    prepared = latency_hist.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), device)
    bins = registry.counter("latency.bins")
    slow = registry.counter("latency.slow")
    latency_hist.launch(prepared, registry.stream, latencies, bins, slow, 25.0, 150.0)


def count_requests(registry: MetricsRegistry, *, latencies: sk.DeviceBuffer, n: int) -> None:
    host = registry.counter("requests").to_numpy(registry.stream)
    host[0] += n
    registry.counter("requests").copy_from_numpy(host, registry.stream)


def build_server_metrics(level: str, device: sk.Device) -> tuple[HookBus, MetricsRegistry]:
    registry = MetricsRegistry(level, device.new_stream())
    bus = HookBus()
    bus.on("batch_done", functools.partial(count_requests, registry))
    bus.on("batch_done", functools.partial(record_latency, registry, device))
    return bus, registry


def main() -> None:
    device = sk.Device.cpu()
    bus, registry = build_server_metrics("minimal", device)
    rng = np.random.default_rng(9)
    for _batch in range(3):
        lat = rng.gamma(2.0, 30.0, 100).astype(np.float32)
        buf = sk.to_device(lat, registry.stream)
        bus.emit("batch_done", latencies=buf, n=len(lat))
    print("requests:", registry.read("requests")[0], "bins:", registry.read("latency.bins"))


if __name__ == "__main__":
    main()
