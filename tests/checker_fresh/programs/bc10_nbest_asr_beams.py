# fresh-expect: clean
# fresh-note: Speech-recognition beam search that adds running beam scores to each frame's token log-probs with a tile kernel, rebinds the score tensor from the selected candidates before testing whether every beam has ended, and returns a length-normalised n-best list.
"""N-best decoding for a streaming speech recogniser: at every acoustic frame each beam is extended by every
token, the candidate scores are computed on the device, and the best `beams` survive.  Decoding stops when
all beams have emitted the end-of-utterance token.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TOKENS = 32
EOU = 1


@tile.kernel
def extend(cand: Partition[f32], running: Tensor[f32], frame_logp: Tensor[f32]) -> None:
    mine = running.load((tile.bid(0), 0), (1, 1))
    cand.store(tile.load_like(frame_logp, cand) + mine)


@dataclass
class Hypothesis:
    tokens: list[int] = field(default_factory=list)

    def ended(self) -> bool:
        return bool(self.tokens) and self.tokens[-1] == EOU


def frame_log_probs(frame: int, beams: int, rng: np.random.Generator) -> np.ndarray:
    logits = rng.standard_normal((beams, TOKENS)).astype(np.float32)
    logits[:, EOU] = 25.0 if frame >= 4 else -8.0
    shifted = logits - logits.max(axis=1, keepdims=True)
    return (shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))).astype(np.float32)


class NBestDecoder:
    def __init__(self, beams: int, stream: sk.Stream) -> None:
        self.beams = beams
        self.stream = stream
        self.running = tile.from_numpy(np.zeros((beams, 1), np.float32)).sync_on(stream)
        self.hyps = [Hypothesis() for _ in range(beams)]

    def decode(self, n_frames: int, seed: int = 0) -> list[tuple[float, list[int]]]:
        rng = np.random.default_rng(seed)
        for frame in range(n_frames):
            logp = tile.from_numpy(frame_log_probs(frame, self.beams, rng))
            cand = tile.zeros((self.beams, TOKENS), f32).partition((1, TOKENS))
            cand, _running, _logp = extend(cand, self.running, logp).sync_on(self.stream)
            flat = cand.unpartition().to_numpy(self.stream).ravel()
            keep = np.argsort(-flat, kind="stable")[: self.beams]
            self.hyps = [Hypothesis(self.hyps[k // TOKENS].tokens + [int(k % TOKENS)]) for k in keep]
            self.running = tile.from_numpy(flat[keep].reshape(self.beams, 1)).sync_on(self.stream)
            if all(h.ended() for h in self.hyps):
                break
        totals = self.running.to_numpy(self.stream).ravel()
        normed = [(float(s) / len(h.tokens), h.tokens) for s, h in zip(totals, self.hyps)]
        return sorted(normed, key=lambda p: -p[0])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    decoder = NBestDecoder(beams=3, stream=stream)
    for score, tokens in decoder.decode(n_frames=10, seed=10):
        print(f"{score:7.3f}", tokens)


if __name__ == "__main__":
    main()
