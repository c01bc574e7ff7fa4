# fresh-expect: E0308 at line 59
# fresh-note: Speculative decoding where a draft model proposes tokens, exponentiated logits for draft and target come from one SIMT kernel and the acceptance ratios min(1, p/q) from another, each with a prepared launch made in `__init__`. Bug: `verify` launches `accept_ratio` with `self.p_probs`, the launch prepared for `exp_logits` (copy-pasted from the line above) (E0308).
"""Speculative decoding (Leviathan et al.): a cheap draft model proposes `k` tokens, the target model scores
them in one pass, and each proposal is accepted with probability min(1, p_target / p_draft).
"""

from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

VOCAB = 128


@simt.kernel
@simt.launch_contract(block=128)
def exp_logits(logits: Slice[f32], out: DisjointSlice[f32], inv_t: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(math.exp(logits[i] * inv_t))


@simt.kernel
@simt.launch_contract(block=128)
def accept_ratio(p_target: Slice[f32], p_draft: Slice[f32], ratio: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := ratio.get_mut(idx)) is not None:
        r.set(min(f32(1.0), p_target[i] / max(p_draft[i], f32(1e-12))))


class SpeculativeDecoder:
    def __init__(self, dev: sk.Device, stream: sk.Stream, k: int = 4, temperature: float = 1.0) -> None:
        self.stream = stream
        self.k = k
        self.inv_t = 1.0 / temperature
        cfg = simt.LaunchConfig1D.for_len(VOCAB, block=128)
        self.p_probs = exp_logits.prepare(cfg, dev)
        self.p_accept = accept_ratio.prepare(cfg, dev)
        self.rng = np.random.default_rng(0)

    def probs(self, logits: np.ndarray) -> tuple[sk.DeviceBuffer, float]:
        src = sk.to_device(logits.astype(np.float32), self.stream)
        out = sk.zeros(VOCAB, f32, self.stream)
        exp_logits.launch(self.p_probs, self.stream, src, out, self.inv_t)
        return out, float(out.to_numpy(self.stream).sum())

    def verify(self, draft_logits: np.ndarray, target_logits: np.ndarray, proposal: int) -> bool:
        q, zq = self.probs(draft_logits)
        p, zp = self.probs(target_logits)
        ratio = sk.zeros(VOCAB, f32, self.stream)
        accept_ratio.launch(self.p_probs, self.stream, p, q, ratio)
        r = float(ratio.to_numpy(self.stream)[proposal]) * zq / zp
        return bool(self.rng.random() < min(1.0, r))

    def step(self, draft_lm, target_lm, prefix: list[int]) -> list[int]:
        accepted: list[int] = []
        for _ in range(self.k):
            d_logits = draft_lm(prefix + accepted)
            proposal = int(np.argmax(d_logits))
            if not self.verify(d_logits, target_lm(prefix + accepted), proposal):
                break
            accepted.append(proposal)
        return accepted


def toy_lm(seed: int):
    table = np.random.default_rng(seed).standard_normal((VOCAB, VOCAB)).astype(np.float32)
    return lambda tokens: table[tokens[-1] % VOCAB] * 2.0


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    decoder = SpeculativeDecoder(dev, stream)
    prefix = [5]
    for _ in range(3):
        prefix += decoder.step(toy_lm(1), toy_lm(1), prefix) or [int(np.argmax(toy_lm(1)(prefix)))]
    print("decoded:", prefix)


if __name__ == "__main__":
    main()
