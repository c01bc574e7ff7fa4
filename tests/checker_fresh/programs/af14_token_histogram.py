# fresh-expect: clean
# idiom: per-document helper with an early return for short documents taken before the launch is built (clean)
"""Word-frequency histograms of a small document collection, counted on the tile track.

Documents are tokenized on the host into ids of a shared vocabulary; a tile kernel scatters
`+1` into a per-document histogram with atomics.  Documents shorter than `MIN_TOKENS` are
skipped as too short to characterise.  The corpus total is the sum of the document histograms.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import i32
from safekernels.tile import AtomicTensor, Partition

TILE = 32
MIN_TOKENS = 5


@tile.kernel
def count_tokens(ids: Partition[i32], counts: AtomicTensor[i32]) -> None:
    width = ids.tile_shape[0]
    lanes = tile.iota(width, i32) + tile.bid(0) * width
    tile.atomic_add(counts, ids.load(), 1, mask=lanes < ids.shape[0])


def words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


class Vocabulary:
    def __init__(self, texts: Iterable[str]) -> None:
        self.words = sorted({w for text in texts for w in words(text)})
        self.index = {w: i for i, w in enumerate(self.words)}

    def __len__(self) -> int:
        return len(self.words)

    def encode(self, text: str) -> np.ndarray:
        return np.array([self.index[w] for w in words(text)], np.int32)


def doc_histogram(doc_ids: np.ndarray, vocab_size: int, stream: sk.Stream) -> np.ndarray | None:
    if len(doc_ids) < MIN_TOKENS:
        return None
    ids = tile.from_numpy(doc_ids).partition((TILE,))
    op = count_tokens(ids, tile.zeros((vocab_size,), i32))
    _, counts = op.sync_on(stream)
    return counts.to_numpy(stream)


def histograms(corpus: dict[str, str], vocab: Vocabulary, stream: sk.Stream) -> Iterator[tuple[str, np.ndarray]]:
    for name, text in corpus.items():
        hist = doc_histogram(vocab.encode(text), len(vocab), stream)
        if hist is not None:
            yield name, hist


def main() -> None:
    corpus = {
        "ode": "O wild West Wind, thou breath of Autumn's being, thou from whose unseen presence the leaves dead",
        "memo": "Reminder: the meeting moved to Thursday. Bring the quarterly numbers.",
        "haiku": "Old pond, frog jumps in",
        "note": "ok",
        "recipe": "Whisk the eggs, fold in the flour, rest the batter, then fry the batter thin in the pan.",
    }
    vocab = Vocabulary(corpus.values())
    stream = sk.Device.cpu().new_stream()
    total = np.zeros(len(vocab), np.int64)
    kept = []
    for name, hist in histograms(corpus, vocab, stream):
        want = Counter(vocab.encode(corpus[name]).tolist())
        assert all(hist[i] == c for i, c in want.items()) and hist.sum() == sum(want.values()), name
        total += hist
        kept.append(name)
    top = np.argsort(-total, kind="stable")[:3]
    print(f"kept {kept}; top words: {[(vocab.words[i], int(total[i])) for i in top]}")


if __name__ == "__main__":
    main()
