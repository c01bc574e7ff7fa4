# fresh-expect: E0499 at line 56
# fresh-note: Prefix-cache (radix cache) lookup that probes a hashed block table on the device and counts hits and misses per tenant with atomics. Bug: `__init__` ports `self.hits = self.misses = 0` to device counters as a chained assignment, so both attributes hold one buffer and the probe launch gets it as two AtomicSlice outputs (E0499).
"""Prefix caching for a multi-tenant LLM server: the hashes of a request's prompt blocks are probed against
the device-resident block table, and per-tenant hit/miss counters feed the cache-eviction policy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread

TABLE = 256
TENANTS = 4


@simt.kernel
@simt.launch_contract(block=64)
def probe(hashes: Slice[i32], table: Slice[i32], tenant: i32, hits: AtomicSlice[i32],
          misses: AtomicSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i < len(hashes):
        h = hashes[i]
        if table[h % TABLE] == h:
            hits.fetch_add(tenant, i32(1))
        else:
            misses.fetch_add(tenant, i32(1))


@dataclass
class Request:
    tenant: int
    block_hashes: np.ndarray


class PrefixCache:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream
        self.host_table = np.full(TABLE, -1, np.int32)
        self.table = sk.to_device(self.host_table, stream)
        self.hits = self.misses = sk.zeros(TENANTS, i32, stream)

    def insert(self, hashes: np.ndarray) -> None:
        self.host_table[hashes % TABLE] = hashes
        self.table = sk.to_device(self.host_table, self.stream)

    def lookup(self, req: Request) -> None:
        hashes = sk.to_device(req.block_hashes.astype(np.int32), self.stream)
        prep = probe.prepare(simt.LaunchConfig1D.for_len(len(req.block_hashes), block=64), self.dev)
        probe.launch(prep, self.stream, hashes, self.table, req.tenant, self.hits, self.misses)

    def hit_rates(self) -> list[float]:
        hits = self.hits.to_numpy(self.stream).astype(np.float64)
        misses = self.misses.to_numpy(self.stream).astype(np.float64)
        return [round(float(h / max(h + m, 1.0)), 3) for h, m in zip(hits, misses)]


def prompt_blocks(system_prompt: int, n_user_blocks: int, rng: np.random.Generator) -> np.ndarray:
    shared = np.arange(system_prompt, system_prompt + 8)
    return np.concatenate([shared, rng.integers(10_000, 1_000_000, n_user_blocks)])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    cache = PrefixCache(dev, stream)
    rng = np.random.default_rng(18)
    for tenant in range(TENANTS):
        blocks = prompt_blocks(1000 * (tenant + 1), 4, rng)
        cache.lookup(Request(tenant, blocks))
        cache.insert(blocks)
        cache.lookup(Request(tenant, prompt_blocks(1000 * (tenant + 1), 4, rng)))
    print("hit rate per tenant:", cache.hit_rates())


if __name__ == "__main__":
    main()
