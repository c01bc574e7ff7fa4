# fresh-expect: W0003 at line 65
# fresh-known-miss: cli,mypy `zip(self._ops(docs), range(limit))` pulls one more op from the generator than the range allows and drops it unrun: the extra item zip takes from its first operand is not followed (W0003, as y15)
# fresh-note: byte-level tokenizer pre-pass (tile char-class gather, then word-start flags chained with then) fed by a generator of per-document ops; the request budget is applied with zip(generator, range(limit)), which pulls one extra op from the generator and drops it unrun.
from __future__ import annotations
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import i32
from safekernels.tile import Partition, Tensor

T = 32
SPACE, LETTER, DIGIT, PUNCT = 0, 1, 2, 3


def class_table() -> np.ndarray:
    table = np.full(256, PUNCT, np.int32)
    table[[ord(c) for c in " \t\n\r"]] = SPACE
    for lo, hi in (("a", "z"), ("A", "Z")):
        table[ord(lo) : ord(hi) + 1] = LETTER
    table[ord("0") : ord("9") + 1] = DIGIT
    return table


@tile.kernel
def classify(cls: Partition[i32], text: Tensor[i32], table: Tensor[i32]) -> None:
    cls.store(tile.gather(table, tile.load_like(text, cls)))


@tile.kernel
def word_starts(flags: Partition[i32], cls: Tensor[i32]) -> None:
    pos = tile.iota(32, i32) + tile.bid(0) * 32
    here = tile.gather(cls, pos, mask=pos < cls.shape[0], other=0)
    prev = tile.gather(cls, pos - 1, mask=pos > 0, other=0)
    flags.store(((here != 0) & (here != prev)).astype(i32))


@dataclass
class Encoded:
    name: str
    classes: np.ndarray
    starts: np.ndarray

    def words(self, text: str) -> list[str]:
        bounds = list(np.flatnonzero(self.starts)) + [len(text)]
        out = []
        for a, b in zip(bounds, bounds[1:]):
            piece = text[a:b]
            out.append(piece.split()[0] if piece.split() else piece)
        return out


class Tokenizer:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.table = tile.from_numpy(class_table()).shared()

    def _ops(self, docs: dict[str, str]) -> Iterator[tuple[str, sk.DeviceOp]]:
        for name, text in docs.items():
            codes = np.frombuffer(text.encode("latin-1"), np.uint8).astype(np.int32)
            out = tile.zeros((len(codes),), i32).partition((T,))
            op = classify(out, tile.from_numpy(codes), self.table).then(
                lambda v, n=len(codes): word_starts(tile.zeros((n,), i32).partition((T,)), v[0].unpartition())
            )
            yield name, op

    def encode(self, docs: dict[str, str], limit: int) -> list[Encoded]:
        results = []
        for (name, op), _slot in zip(self._ops(docs), range(limit)):
            flags, classes = op.sync_on(self.stream)
            results.append(Encoded(name, classes.to_numpy(self.stream), flags.unpartition().to_numpy(self.stream)))
        return results


CORPUS = {
    "greeting": "Hello, world! 42 tokens walk into a bar.",
    "log": "ERROR 503 at node-7: retry in 30s",
    "recipe": "Mix 2 cups flour; bake 25 minutes at 180C.",
    "spam": "WIN $1000 now!!! click here",
}


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    tok = Tokenizer(stream)
    encoded = tok.encode(CORPUS, limit=3)
    assert [e.name for e in encoded] == ["greeting", "log", "recipe"]
    for enc in encoded:
        words = enc.words(CORPUS[enc.name])
        assert words[0] == CORPUS[enc.name].split()[0].rstrip(",!:;"), words
        print(f"{enc.name:>9}: {len(words)} pieces, first {words[:4]}")


if __name__ == "__main__":
    main()
