# fresh-expect: E0499 at line 76
# fresh-known-miss: cli,mypy views carved at a loop-carried offset (`offset = size` instead of `offset += size`) overlap: offsets computed in a loop are not compared
"""Unigram, bigram and sentence-start counts of a tokenized corpus, with atomics on the SIMT track.

All counters live in one packed device buffer (one allocation, one copy back); named views give each
kernel parameter its section.  The counts are turned into bigram probabilities on the host.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32, u32
from safekernels.simt import AtomicSlice, Slice, thread

BLOCK = 256
BOS = 0


@simt.kernel
@simt.launch_contract(block=BLOCK)
def count_tokens(tokens: Slice[i32], unigram: AtomicSlice[u32], bigram: AtomicSlice[u32],
                 starts: AtomicSlice[u32], vocab: i32) -> None:
    i = thread.index_1d().get()
    if i < len(tokens):
        t = tokens[i]
        unigram.fetch_add(t, u32(1))
        if i + 1 < len(tokens):
            bigram.fetch_add(t * vocab + tokens[i + 1], u32(1))
            if t == BOS:
                starts.fetch_add(tokens[i + 1], u32(1))


def section_sizes(vocab: int) -> dict[str, int]:
    return {"unigram": vocab, "bigram": vocab * vocab, "starts": vocab}


def carve(packed: sk.DeviceBuffer, sizes: dict[str, int]) -> dict[str, sk.DeviceBuffer]:
    views: dict[str, sk.DeviceBuffer] = {}
    offset = 0
    for name, size in sizes.items():
        views[name] = packed.view(offset, offset + size)
        offset = size
    return views


def synthetic_corpus(vocab: int, sentences: int, seed: int = 42) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out: list[int] = []
    for _ in range(sentences):
        length = int(rng.integers(4, 12))
        out.append(BOS)
        out.extend(rng.zipf(1.6, length).clip(1, vocab - 1).tolist())
    return np.asarray(out, dtype=np.int32)


def numpy_counts(tokens: np.ndarray, vocab: int) -> dict[str, np.ndarray]:
    bigram = np.zeros(vocab * vocab, np.uint32)
    np.add.at(bigram, tokens[:-1] * vocab + tokens[1:], 1)
    starts = np.bincount(tokens[1:][tokens[:-1] == BOS], minlength=vocab).astype(np.uint32)
    return {"unigram": np.bincount(tokens, minlength=vocab).astype(np.uint32), "bigram": bigram, "starts": starts}


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    vocab = 24
    tokens_host = synthetic_corpus(vocab, 300)
    sizes = section_sizes(vocab)
    packed = sk.zeros(sum(sizes.values()), u32, stream)
    views = carve(packed, sizes)
    tokens = sk.to_device(tokens_host, stream)
    prepared = count_tokens.prepare(simt.LaunchConfig1D.for_len(len(tokens_host), block=BLOCK), device)
    count_tokens.launch(prepared, stream, tokens, views["unigram"], views["bigram"], views["starts"], vocab)
    expected = numpy_counts(tokens_host, vocab)
    for name, view in views.items():
        np.testing.assert_array_equal(view.to_numpy(stream), expected[name])
    bigram = views["bigram"].to_numpy(stream).reshape(vocab, vocab).astype(np.float64)
    probs = bigram / np.maximum(bigram.sum(axis=1, keepdims=True), 1)
    first = views["starts"].to_numpy(stream)
    print(f"{len(tokens_host)} tokens; most common first word {int(np.argmax(first))}; "
          f"P(1 | 1) = {probs[1, 1]:.3f}")


if __name__ == "__main__":
    main()
