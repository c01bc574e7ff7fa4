# fresh-expect: E0382 at line 68
# fresh-note: Beam search whose candidate scores (running beam score + token log-probs) are computed by a tile kernel each step. Bug: when every beam has emitted EOS the loop breaks before `self.scores` is rebound, so the final length-normalised ranking reads the score tensor that was moved into the last `expand` launch (E0382).
"""Beam search decoding with the per-step candidate expansion on the device.

Every step adds each beam's running log-probability to the model's next-token log-probs (a (beams, vocab)
tile launch), the host picks the best `beams` candidates, and the hypotheses grow by one token.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

VOCAB = 64
EOS = 0


@tile.kernel
def expand(cand: Partition[f32], scores: Tensor[f32], logp: Tensor[f32]) -> None:
    running = scores.load((tile.bid(0), 0), (1, 1))
    cand.store(tile.load_like(logp, cand) + running)


def log_softmax(x: np.ndarray) -> np.ndarray:
    shifted = x - x.max(axis=-1, keepdims=True)
    return (shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))).astype(np.float32)


class ToyLM:
    """Stands in for the model: random logits that make EOS likely after `length` tokens."""

    def __init__(self, length: int, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.length = length

    def logits(self, hyps: list[list[int]]) -> np.ndarray:
        out = self.rng.standard_normal((len(hyps), VOCAB)).astype(np.float32)
        out[:, EOS] = -5.0
        for b, h in enumerate(hyps):
            if len(h) >= self.length:
                out[b, EOS] = 30.0
        return out


class BeamSearch:
    def __init__(self, beams: int, stream: sk.Stream) -> None:
        self.beams = beams
        self.stream = stream
        self.scores = tile.from_numpy(np.zeros((beams, 1), np.float32)).sync_on(stream)
        self.hyps: list[list[int]] = [[] for _ in range(beams)]

    def generate(self, lm: ToyLM, max_len: int, alpha: float = 0.6) -> list[tuple[float, list[int]]]:
        for _ in range(max_len):
            logp = tile.from_numpy(log_softmax(lm.logits(self.hyps)))
            cand = tile.zeros((self.beams, VOCAB), f32).partition((1, VOCAB))
            cand, _scores, _logp = expand(cand, self.scores, logp).sync_on(self.stream)
            flat = cand.unpartition().to_numpy(self.stream).ravel()
            best = np.argsort(-flat, kind="stable")[: self.beams]
            parents, tokens = best // VOCAB, best % VOCAB
            self.hyps = [self.hyps[p] + [int(t)] for p, t in zip(parents, tokens)]
            if all(h[-1] == EOS for h in self.hyps):
                break
            self.scores = tile.from_numpy(flat[best].reshape(self.beams, 1)).sync_on(self.stream)
        final = self.scores.to_numpy(self.stream).ravel()
        penalty = np.array([((5 + len(h)) / 6) ** alpha for h in self.hyps], np.float32)
        ranked = sorted(zip((final / penalty).tolist(), self.hyps), key=lambda p: -p[0])
        return ranked


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    search = BeamSearch(beams=4, stream=stream)
    ranked = search.generate(ToyLM(length=3, seed=5), max_len=8)
    for score, hyp in ranked:
        print(f"{score:8.3f}", hyp)


if __name__ == "__main__":
    main()
