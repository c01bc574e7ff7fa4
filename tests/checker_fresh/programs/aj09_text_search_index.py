# fresh-expect: E0382 at line 59
# fresh-note: Token n-gram search whose index class keeps a `head` view of its hit buffer made in __init__; counting hits per chunk moves the hit buffer into a tile launch (rebinding the attribute to the handed-back buffer), and the later preview reads the stale view.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

CHUNK = 256
PREVIEW = 64


@simt.kernel
@simt.launch_contract(block=128)
def match_ngram(corpus: Slice[i32], pattern: Slice[i32], hits: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    m = len(pattern)
    found = i + m <= len(corpus)
    j = 0
    while found and j < m:
        if corpus[i + j] != pattern[j]:
            found = False
        j += 1
    if (h := hits.get_mut(idx)) is not None:
        h.set(i32(1) if found else i32(0))


@tile.kernel
def chunk_counts(counts: Partition[i32], hits: Tensor[i32]) -> None:
    block = hits.partition((CHUNK,)).load((tile.bid(0),))
    counts.store(tile.sum(block, axis=0, keepdims=True))


class SearchIndex:
    def __init__(self, tokens: np.ndarray, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.n = int(tokens.shape[0])
        self.corpus = sk.to_device(tokens.astype(np.int32), self.stream)
        self.hits = sk.zeros(self.n, i32, self.stream)
        self.head = self.hits.view(0, PREVIEW)
        self.prepared = match_ngram.prepare(simt.LaunchConfig1D.for_len(self.n, block=128), dev)

    def search(self, pattern: list[int]) -> None:
        pat = sk.to_device(np.asarray(pattern, np.int32), self.stream)
        match_ngram.launch(self.prepared, self.stream, self.corpus, pat, self.hits)

    def per_chunk(self) -> np.ndarray:
        chunks = -(-self.n // CHUNK)
        counts = tile.zeros((chunks,), i32).partition((1,))
        counts, self.hits = chunk_counts(counts, self.hits).sync_on(self.stream)
        return counts.unpartition().to_numpy(self.stream)

    def preview(self) -> list[int]:
        return [int(k) for k in np.nonzero(self.head.to_numpy(self.stream))[0]]


def plant(tokens: np.ndarray, pattern: list[int], where: list[int]) -> None:
    for pos in where:
        tokens[pos:pos + len(pattern)] = pattern


def run_queries(queries: dict[str, list[int]]) -> dict[str, tuple[int, list[int]]]:
    rng = np.random.default_rng(11)
    tokens = rng.integers(0, 40, 2000)
    for q, pos in zip(queries.values(), ([5, 900, 1500], [30, 31 * 40, 1999 - 3])):
        plant(tokens, q, pos)
    index = SearchIndex(tokens, sk.Device.cpu())
    results = {}
    for name, pattern in queries.items():
        index.search(pattern)
        counts = index.per_chunk()
        busiest = int(counts.argmax())
        results[name] = (busiest, index.preview())
    return results


if __name__ == "__main__":
    out = run_queries({"brown fox": [41, 42, 43], "lazy dog": [44, 45]})
    for name, (chunk, early) in out.items():
        print(f"{name!r}: busiest chunk {chunk}, early hits {early}")
