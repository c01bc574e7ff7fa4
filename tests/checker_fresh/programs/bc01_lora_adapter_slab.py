# fresh-expect: clean
# fresh-note: Multi-LoRA serving: adapter A/B factors are loaded into consecutive regions of one device slab by a bump allocator, and a SIMT kernel writes both factors of an adapter in one launch; regions never overlap.
"""Multi-LoRA serving (S-LoRA style): many small adapters share one device slab.

Loading an adapter reserves one region for its down-projection (A) and one for its up-projection (B) and
fills both from the host copy in a single launch; the serving loop then reads the factors back by name.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

RANK = 4
HIDDEN = 32
FACTOR = RANK * HIDDEN  # 128 elements per factor


@simt.kernel
@simt.launch_contract(block=128)
def load_factors(a_src: Slice[f32], b_src: Slice[f32], a_dst: DisjointSlice[f32], b_dst: DisjointSlice[f32],
                 scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(a_src):
        if (ad := a_dst.get_mut(idx)) is not None:
            ad.set(a_src[i])
        bidx = thread.index_1d()
        if (bd := b_dst.get_mut(bidx)) is not None:
            bd.set(b_src[i] * scale)


class Slab:
    def __init__(self, slots: int, stream: sk.Stream) -> None:
        self.buf = sk.zeros(slots * FACTOR, f32, stream)
        self.top = 0
        self.limit = slots * FACTOR

    def alloc(self, size: int) -> sk.DeviceBuffer:
        start = self.top
        self.top += size
        if self.top > self.limit:
            raise MemoryError("adapter slab is full; evict an adapter first")
        return self.buf[start : start + size]


@dataclass
class Adapter:
    name: str
    a: sk.DeviceBuffer
    b: sk.DeviceBuffer


class AdapterRegistry:
    def __init__(self, slots: int, dev: sk.Device, stream: sk.Stream) -> None:
        self.slab = Slab(slots, stream)
        self.stream = stream
        self.prep = load_factors.prepare(simt.LaunchConfig1D.for_len(FACTOR, block=128), dev)
        self.adapters: dict[str, Adapter] = {}

    def load(self, name: str, a_host: np.ndarray, b_host: np.ndarray, alpha: float) -> Adapter:
        a_src = sk.to_device(a_host.ravel(), self.stream)
        b_src = sk.to_device(b_host.ravel(), self.stream)
        a_dst = self.slab.alloc(FACTOR)
        b_dst = self.slab.alloc(FACTOR)
        load_factors.launch(self.prep, self.stream, a_src, b_src, a_dst, b_dst, alpha / RANK)
        adapter = Adapter(name, a_dst, b_dst)
        self.adapters[name] = adapter
        return adapter

    def delta(self, name: str, x: np.ndarray) -> np.ndarray:
        ad = self.adapters[name]
        a = ad.a.to_numpy(self.stream).reshape(RANK, HIDDEN)
        b = ad.b.to_numpy(self.stream).reshape(HIDDEN, RANK)
        return b @ (a @ x)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    registry = AdapterRegistry(slots=6, dev=dev, stream=stream)
    rng = np.random.default_rng(7)
    for name in ("sql", "legal", "chat"):
        a = rng.standard_normal((RANK, HIDDEN)).astype(np.float32)
        b = rng.standard_normal((HIDDEN, RANK)).astype(np.float32)
        registry.load(name, a, b, alpha=8.0)
    x = rng.standard_normal(HIDDEN).astype(np.float32)
    for name in registry.adapters:
        print(name, "delta norm", round(float(np.linalg.norm(registry.delta(name, x))), 3))


if __name__ == "__main__":
    main()
