# fresh-expect: clean
# fresh-note: N-gram draft cache for prompt-lookup decoding that probes candidate n-gram hashes on the device and counts accepted and rejected drafts per request slot with atomics into two separate counter buffers returned by a helper.
"""Prompt-lookup decoding keeps a table of n-gram hashes seen in the prompt; candidate continuations are
probed against it on the device, and per-slot accepted/rejected counters decide how long the drafts should be.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread

TABLE = 512
SLOTS = 4


@simt.kernel
@simt.launch_contract(block=64)
def probe_ngrams(hashes: Slice[i32], table: Slice[i32], slot: i32, accepted: AtomicSlice[i32],
                 rejected: AtomicSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i < len(hashes):
        h = hashes[i]
        if table[h % TABLE] == h:
            accepted.fetch_add(slot, i32(1))
        else:
            rejected.fetch_add(slot, i32(1))


def counter_pair(n: int, stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    return sk.zeros(n, i32, stream), sk.zeros(n, i32, stream)


@dataclass
class DraftStats:
    accepted: sk.DeviceBuffer
    rejected: sk.DeviceBuffer
    lookups: int = 0
    history: list[int] = field(default_factory=list)


class NgramDraftCache:
    def __init__(self, prompt: np.ndarray, dev: sk.Device, stream: sk.Stream, n: int = 3) -> None:
        self.dev = dev
        self.stream = stream
        table = np.full(TABLE, -1, np.int32)
        grams = np.array([hash(tuple(prompt[i : i + n])) % 1_000_003 for i in range(len(prompt) - n + 1)])
        table[grams % TABLE] = grams
        self.table = sk.to_device(table, stream)
        self.n = n
        self.stats = DraftStats(*counter_pair(SLOTS, stream))

    def probe(self, slot: int, candidates: list[tuple[int, ...]]) -> None:
        hashes = np.array([hash(c) % 1_000_003 for c in candidates], np.int32)
        dev_hashes = sk.to_device(hashes, self.stream)
        prep = probe_ngrams.prepare(simt.LaunchConfig1D.for_len(len(hashes), block=64), self.dev)
        probe_ngrams.launch(prep, self.stream, dev_hashes, self.table, slot, self.stats.accepted, self.stats.rejected)
        self.stats.lookups += 1

    def acceptance(self) -> list[float]:
        acc = self.stats.accepted.to_numpy(self.stream).astype(np.float64)
        rej = self.stats.rejected.to_numpy(self.stream).astype(np.float64)
        return [round(float(a / max(a + r, 1.0)), 3) for a, r in zip(acc, rej)]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(24)
    prompt = rng.integers(0, 50, 64)
    cache = NgramDraftCache(prompt, dev, stream)
    for slot in range(SLOTS):
        start = int(rng.integers(0, 40))
        from_prompt = [tuple(int(t) for t in prompt[start + k : start + k + 3]) for k in range(slot + 2)]
        novel = [tuple(int(t) for t in rng.integers(50, 99, 3)) for _ in range(3)]
        cache.probe(slot, from_prompt + novel)
    print("draft acceptance per slot:", cache.acceptance(), "lookups:", cache.stats.lookups)


if __name__ == "__main__":
    main()
