# fresh-expect: clean
# fresh-note: naive-Bayes spam filter whose log-probability tables are tile tensors rewritten in place by SIMT launch_async ops through as_buffer(); the daily loop finishes the table refresh before scoring the inbox, so the tile scoring launch moves tables no pending op borrows.
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

V = 256  # hashed vocabulary
T = 4  # messages per tile block
LABELS = ("spam", "ham")
ALPHA = 1.0


def token_ids(text: str) -> np.ndarray:
    return np.array([zlib.crc32(w.encode()) % V for w in text.lower().split()], np.int32)


@simt.kernel
@simt.launch_contract(block=64)
def count_tokens(tokens: Slice[i32], counts: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(tokens):
        counts.fetch_add(tokens[i], f32(1.0))


@simt.kernel
@simt.launch_contract(block=64)
def recompute(counts: Slice[f32], total: f32, alpha: f32, logp: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := logp.get_mut(idx)) is not None:
        o.set(math.log((counts[i] + alpha) / (total + alpha * f32(256.0))))


@tile.kernel
def score(out: Partition[f32], bow: Tensor[f32], logp_spam: Tensor[f32], logp_ham: Tensor[f32]) -> None:
    words = bow.load((tile.bid(0), 0), (4, 256))
    ratio = tile.reshape(logp_spam.load((0,), (256,)) - logp_ham.load((0,), (256,)), (1, 256))
    out.store(tile.sum(words * ratio, axis=1))


@dataclass
class NaiveBayes:
    logp_spam: Any
    logp_ham: Any

    def table(self, label: str) -> Any:
        return self.logp_spam if label == "spam" else self.logp_ham

    def classify(self, inbox: list[str], stream: sk.Stream) -> np.ndarray:
        bow = np.zeros((len(inbox), V), np.float32)
        for row, text in enumerate(inbox):
            np.add.at(bow[row], token_ids(text), 1.0)
        out = tile.zeros((len(inbox),), f32).partition((T,))
        op = score(out, tile.from_numpy(bow), self.logp_spam, self.logp_ham)
        out, _, self.logp_spam, self.logp_ham = op.sync_on(stream)
        return out.unpartition().to_numpy(stream) > 0.0


class Trainer:
    def __init__(self, model: NaiveBayes, stream: sk.Stream) -> None:
        self.model, self.stream = model, stream
        self.counts = {label: sk.zeros(V, f32, stream) for label in LABELS}
        self.totals = dict.fromkeys(LABELS, 0)
        self.prep = recompute.prepare(simt.LaunchConfig1D.for_len(V, block=64), stream.device)
        self.pending: list[sk.DeviceOp] = []

    def feedback(self, label: str, messages: list[str]) -> None:
        ids = np.concatenate([token_ids(m) for m in messages])
        prepared = count_tokens.prepare(simt.LaunchConfig1D.for_len(len(ids), block=64), self.stream.device)
        count_tokens.launch(prepared, self.stream, sk.to_device(ids, self.stream), self.counts[label])
        self.totals[label] += len(ids)

    def start_refresh(self) -> None:
        for label in LABELS:
            table = self.model.table(label).as_buffer()
            self.pending.append(recompute.launch_async(self.prep, self.counts[label], float(self.totals[label]), ALPHA, table))

    def finish(self) -> None:
        while self.pending:
            self.pending.pop().sync_on(self.stream)


SPAM = ["win cash prize now", "cheap pills online now", "claim your free prize", "urgent wire cash offer"]
HAM = ["meeting moved to friday", "lunch at noon tomorrow", "draft report attached for review", "see you at the meeting"]


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    uniform = -math.log(V)
    model = NaiveBayes(*(tile.full((V,), uniform, f32).sync_on(stream) for _ in LABELS))
    trainer = Trainer(model, stream)
    days = [(SPAM[:2], HAM[:2], ["free cash prize", "report for friday meeting"]),
            (SPAM[2:], HAM[2:], ["win a free prize now", "lunch tomorrow at noon", "cheap cash offer", "review the draft"])]
    verdicts = []
    for spam, ham, inbox in days:
        trainer.feedback("spam", spam)
        trainer.feedback("ham", ham)
        trainer.start_refresh()
        trainer.finish()
        verdicts.append(model.classify(inbox, stream))
    assert verdicts[-1].tolist() == [True, False, True, False], verdicts[-1]
    print("day verdicts:", [v.astype(int).tolist() for v in verdicts])


if __name__ == "__main__":
    main()
