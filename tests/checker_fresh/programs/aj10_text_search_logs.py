# fresh-expect: clean
# fresh-note: Log-search service whose index exposes the early-hit preview as a property that views the current hit buffer on every read, so the tile per-chunk count that moves and rebinds the hit buffer leaves no stale view behind.
from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

CHUNK = 128
PREVIEW = 96


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


class LogIndex:
    def __init__(self, tokens: np.ndarray, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.n = int(tokens.shape[0])
        self.corpus = sk.to_device(tokens.astype(np.int32), self.stream)
        self.hits = sk.zeros(self.n, i32, self.stream)
        self.prepared = match_ngram.prepare(simt.LaunchConfig1D.for_len(self.n, block=128), dev)

    @property
    def head(self) -> sk.DeviceBuffer:
        return self.hits.view(0, PREVIEW)

    def search(self, pattern: list[int]) -> None:
        pat = sk.to_device(np.asarray(pattern, np.int32), self.stream)
        match_ngram.launch(self.prepared, self.stream, self.corpus, pat, self.hits)

    def per_chunk(self) -> np.ndarray:
        counts = tile.zeros((-(-self.n // CHUNK),), i32).partition((1,))
        counts, self.hits = chunk_counts(counts, self.hits).sync_on(self.stream)
        return counts.unpartition().to_numpy(self.stream)


def tokenize(lines: list[str], vocab: dict[str, int]) -> np.ndarray:
    ids = []
    for line in lines:
        for word in line.split():
            ids.append(vocab.setdefault(word, len(vocab)))
    return np.asarray(ids, np.int32)


def main() -> None:
    words = "connect timeout retry ok user login logout disk full warn error".split()
    rng = np.random.default_rng(5)
    lines = [" ".join(rng.choice(words, 6)) for _ in range(200)]
    lines[3] = "disk full error retry"
    lines[150] = "user login timeout"
    vocab: dict[str, int] = {}
    index = LogIndex(tokenize(lines, vocab), sk.Device.cpu())
    queue = deque(["disk full error", "login timeout", "retry ok"])
    while queue:
        query = queue.popleft()
        index.search([vocab[w] for w in query.split()])
        counts = index.per_chunk()
        early = np.nonzero(index.head.to_numpy(index.stream))[0].tolist()
        print(f"{query!r}: {int(counts.sum())} hits, busiest chunk {int(counts.argmax())}, early {early}")


if __name__ == "__main__":
    main()
