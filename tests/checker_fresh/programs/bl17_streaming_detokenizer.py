# fresh-expect: E0382 at line 59
# fresh-note: streaming detokenizer generator that moves self.table into each byte_offsets launch but keeps only the output via op.first(), dropping the handed-back table, so the launch for the second chunk (line 59) uses the moved table.
"""Streaming detokenizer: turns chunks of generated token ids into text as they arrive (tile track).

The device keeps the vocabulary's byte-length table.  For every chunk a tile kernel gathers each token's
byte length and takes a running sum, giving the byte offset where each token's text ends; the host then
cuts the concatenated pieces at those offsets.  Chunks are padded with -1 to a fixed width.
"""

from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import i32
from safekernels.tile import Partition, Tensor

CHUNK = 16
VOCAB = ["<s>", "the", " cat", " sat", " on", " a", " mat", ".", " and", " purred", "!", " dog"]


@tile.kernel
def byte_offsets(out: Partition[i32], lengths: Tensor[i32], ids: Tensor[i32], base: i32) -> None:
    t = tile.load_like(ids, out)
    lens = tile.gather(lengths, t, mask=t >= 0, other=0)
    out.store(tile.cumsum(lens) + base)


def model_chunks(total: int, seed: int = 4) -> Iterator[np.ndarray]:
    """Stand-in for the model: yields token ids a few at a time."""
    rng = np.random.default_rng(seed)
    sent = 0
    while sent < total:
        k = int(min(rng.integers(5, CHUNK + 1), total - sent))
        yield rng.integers(1, len(VOCAB), k).astype(np.int32)
        sent += k


class StreamingDetokenizer:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        lengths = np.array([len(p.encode()) for p in VOCAB], np.int32)
        self.table = tile.from_numpy(lengths).sync_on(stream)
        self.emitted_bytes = 0
        self.buffer = b""

    def _pad(self, ids: np.ndarray) -> np.ndarray:
        padded = np.full(CHUNK, -1, np.int32)
        padded[: len(ids)] = ids
        return padded

    def feed(self, chunks: Iterable[np.ndarray]) -> Iterator[str]:
        for ids in chunks:
            self.buffer += b"".join(VOCAB[int(t)].encode() for t in ids)
            out = tile.zeros((CHUNK,), i32).partition((CHUNK,))
            op = byte_offsets(out, self.table, tile.from_numpy(self._pad(ids)), self.emitted_bytes)
            ends = op.first().sync_on(self.stream)  # only the offsets are needed here
            offsets = ends.unpartition().to_numpy(self.stream)[: len(ids)]
            start = 0
            for end in offsets - self.emitted_bytes:
                yield self.buffer[start:end].decode()
                start = int(end)
            self.buffer = self.buffer[start:]
            self.emitted_bytes = int(offsets[-1])


def main() -> None:
    detok = StreamingDetokenizer(sk.Device.cpu().new_stream())
    pieces = list(detok.feed(model_chunks(40)))
    text = "".join(pieces)
    assert len(text.encode()) == detok.emitted_bytes
    print(f"{len(pieces)} tokens, {detok.emitted_bytes} bytes: {text[:60]!r}...")


if __name__ == "__main__":
    main()
