# fresh-expect: E0499 at line 85
# fresh-known-miss: cli,mypy an LRU cache that evicts and recycles a buffer it already handed out (capacity counted in layers): eviction order is not followed
# fresh-note: LRU cache of K/V device buffers whose capacity property counts layers (K+V pairs) while entries are single buffers, so with capacity 1 the V lookup evicts and recycles the layer's own K buffer and project_kv gets it as both DisjointSlice outputs at line 84.
"""A per-layer K/V projection step backed by an LRU cache of device buffers.

The serving loop walks the decoder layers; for each layer it asks the cache for a key buffer and a value
buffer, projects the hidden state into both with one SIMT launch and snapshots the result.  When the
cache is full it evicts the least recently used entry and recycles that entry's device memory for the
new key instead of allocating.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def project_kv(hidden: Slice[f32], wk: f32, wv: f32, k_out: DisjointSlice[f32], v_out: DisjointSlice[f32]) -> None:
    kidx = thread.index_1d()
    i = kidx.get()
    if (k := k_out.get_mut(kidx)) is not None:
        k.set(wk * hidden[i])
    vidx = thread.index_1d()
    if (v := v_out.get_mut(vidx)) is not None:
        v.set(wv * hidden[i] + 1.0)


@dataclass(frozen=True)
class CacheConfig:
    layer_len: int
    budget_bytes: int

    @property
    def capacity(self) -> int:
        # one "slot" holds a layer: its K and V buffers together
        return max(1, self.budget_bytes // (self.layer_len * 4 * 2))


class DeviceLRU:
    def __init__(self, cfg: CacheConfig, stream: sk.Stream) -> None:
        self.cfg = cfg
        self.stream = stream
        self.entries: OrderedDict[str, sk.DeviceBuffer] = OrderedDict()
        self.evictions = 0

    def get(self, key: str) -> sk.DeviceBuffer:
        if key in self.entries:
            self.entries.move_to_end(key)
            return self.entries[key]
        if len(self.entries) >= self.cfg.capacity:
            _old_key, recycled = self.entries.popitem(last=False)
            self.evictions += 1
            buf = recycled
        else:
            buf = sk.zeros(self.cfg.layer_len, f32, self.stream)
        self.entries[key] = buf
        return buf


class KVProjector:
    def __init__(self, device: sk.Device, cfg: CacheConfig, weights: list[tuple[float, float]]) -> None:
        self.device = device
        self.stream = device.new_stream()
        self.cache = DeviceLRU(cfg, self.stream)
        self.weights = weights
        self.prepared = project_kv.prepare(simt.LaunchConfig1D.for_len(cfg.layer_len, block=BLOCK), device)
        self.snapshots: list[tuple[np.ndarray, np.ndarray]] = []

    def step(self, hidden: sk.DeviceBuffer) -> None:
        for layer, (wk, wv) in enumerate(self.weights):
            k_buf = self.cache.get(f"L{layer}/k")
            v_buf = self.cache.get(f"L{layer}/v")
            # one launch writes both halves of the layer's cache entry
            project_kv.launch(self.prepared, self.stream, hidden, wk, wv, k_buf, v_buf)
            self.snapshots.append((k_buf.to_numpy(self.stream), v_buf.to_numpy(self.stream)))


def main() -> None:
    dev = sk.Device.cpu()
    cfg = CacheConfig(layer_len=64, budget_bytes=64 * 4 * 2)
    proj = KVProjector(dev, cfg, weights=[(0.5, 2.0), (1.5, -1.0), (0.25, 0.75)])
    hidden = sk.to_device(np.arange(cfg.layer_len, dtype=np.float32), proj.stream)
    proj.step(hidden)
    k_last, v_last = proj.snapshots[-1]
    print(f"layers={len(proj.snapshots)} evictions={proj.cache.evictions} k[1]={k_last[1]} v[1]={v_last[1]}")


if __name__ == "__main__":
    main()
