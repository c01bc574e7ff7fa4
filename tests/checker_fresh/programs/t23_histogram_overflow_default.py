# fresh-expect: E0499 at line 30
"""Token histogram with an overflow counter; when the caller passes no overflow buffer the helper falls back to
the histogram itself."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def histogram(tokens: Slice[i32], counts: AtomicSlice[i32], overflow: AtomicSlice[i32], bins: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(tokens):
        t = tokens[i]
        if t < bins:
            counts.fetch_add(t, 1)
        else:
            overflow.fetch_add(0, 1)


def count_tokens(tokens, counts, dev, stream, overflow=None) -> None:
    if overflow is None:
        overflow = counts  # BUG: the overflow slot aliases the histogram
    prep = histogram.prepare(simt.LaunchConfig1D.for_len(len(tokens), block=128), dev)
    histogram.launch(prep, stream, tokens, counts, overflow, len(counts))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)
    vocab = 32
    tokens = sk.to_device(rng.integers(0, vocab + 4, 1000).astype(np.int32), stream)
    counts = sk.zeros(vocab, i32, stream)
    spill = sk.zeros(1, i32, stream)
    count_tokens(tokens, counts, dev, stream, overflow=spill)
    count_tokens(tokens, counts, dev, stream)
    print(counts.to_numpy(stream)[:8], spill.to_numpy(stream))


if __name__ == "__main__":
    main()
