# fresh-expect: E0133 at line 69
# fresh-note: network-flow deduplication with a GPU Bloom filter whose large batches take an unchecked fast path; the fast-path lambda is defined inside `with simt.unsafe():` in __init__, but a lambda body is its own function, so the unchecked launch it makes later runs outside any unsafe block.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

HASHES = 3
FAST_PATH_MIN = 512


@simt.device
def mix(key: u32, seed: u32) -> u32:
    h = key * seed
    h = h ^ (h >> u32(15))
    h = h * u32(0x2C1B3C6D)
    return h ^ (h >> u32(13))


@simt.kernel
@simt.launch_contract(block=128)
def insert(keys: Slice[u32], bits: AtomicSlice[u32], nbits: u32) -> None:
    i = thread.index_1d().get()
    if i < len(keys):
        for s in range(3):
            seed = u32(0x9E3779B1) if s == 0 else (u32(0x85EBCA77) if s == 1 else u32(0xC2B2AE3D))
            h = mix(keys[i], seed) % nbits
            bits.fetch_or(h // u32(32), u32(1) << (h % u32(32)))


@simt.kernel
@simt.launch_contract(block=128)
def query(keys: Slice[u32], bits: Slice[u32], hits: DisjointSlice[i32], nbits: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := hits.get_mut(idx)) is not None:
        found = i32(1)
        for s in range(3):
            seed = u32(0x9E3779B1) if s == 0 else (u32(0x85EBCA77) if s == 1 else u32(0xC2B2AE3D))
            h = mix(keys[i], seed) % nbits
            if (bits[h // u32(32)] >> (h % u32(32))) & u32(1) == u32(0):
                found = i32(0)
        o.set(found)


@dataclass
class FlowKey:
    src: int
    dst: int
    port: int

    def packed(self) -> int:
        return ((self.src * 2654435761) ^ (self.dst * 40503) ^ self.port) & 0xFFFFFFFF


class BloomFilter:
    def __init__(self, stream: sk.Stream, nbits: int) -> None:
        self.stream = stream
        self.nbits = nbits
        self.bits = sk.zeros(nbits // 32, u32, stream)
        self.inserted = 0
        with simt.unsafe():
            self._fast_insert = lambda keys, n: insert.launch_unchecked(
                simt.LaunchConfig1D.for_len(n, block=128), self.stream, keys, self.bits, self.nbits
            )

    def add(self, flows: list[FlowKey]) -> None:
        keys = sk.to_device(np.array([f.packed() for f in flows], np.uint32), self.stream)
        if len(flows) >= FAST_PATH_MIN:
            self._fast_insert(keys, len(flows))
        else:
            prepared = insert.prepare(simt.LaunchConfig1D.for_len(len(flows), block=128), self.stream.device)
            insert.launch(prepared, self.stream, keys, self.bits, self.nbits)
        self.inserted += len(flows)

    def __contains__(self, flow: FlowKey) -> bool:
        return bool(self.contains_many([flow])[0])

    def contains_many(self, flows: list[FlowKey]) -> np.ndarray:
        keys = sk.to_device(np.array([f.packed() for f in flows], np.uint32), self.stream)
        hits = sk.zeros(len(flows), i32, self.stream)
        prepared = query.prepare(simt.LaunchConfig1D.for_len(len(flows), block=128), self.stream.device)
        query.launch(prepared, self.stream, keys, self.bits, hits, self.nbits)
        return hits.to_numpy(self.stream).astype(bool)


def synthetic_flows(rng: np.random.Generator, n: int) -> list[FlowKey]:
    return [FlowKey(int(a), int(b), int(p)) for a, b, p in zip(rng.integers(0, 2**31, n), rng.integers(0, 2**31, n), rng.integers(1, 65535, n))]


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(17)
    seen = BloomFilter(stream, nbits=1 << 14)
    first_batch, burst = synthetic_flows(rng, 64), synthetic_flows(rng, 600)
    for batch in (first_batch, burst):
        seen.add(batch)
    assert seen.contains_many(first_batch + burst).all()
    fresh = seen.contains_many(synthetic_flows(rng, 400))
    assert fresh.mean() < 0.2, fresh.mean()
    assert first_batch[0] in seen
    print(f"{seen.inserted} flows inserted, false-positive rate {fresh.mean():.3f}")


if __name__ == "__main__":
    main()
