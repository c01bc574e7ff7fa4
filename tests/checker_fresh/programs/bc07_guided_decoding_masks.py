# fresh-expect: clean
# fresh-note: Grammar-constrained (guided) decoding, where a finite-state grammar gives the allowed-token mask per state, and a decoder applies a request's logit bias and then the mask with two SIMT kernels whose prepared launches come from a dict comprehension over a kernel registry, each looked up under its own kernel's key.
"""Guided decoding for structured output: a tiny finite-state grammar (digits, then a comma or the end) decides
which tokens may come next; the request's logit bias is added and the disallowed tokens are masked on the device.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

VOCAB = 128
DIGITS = list(range(48, 58))
COMMA, END = 44, 0
NEG_INF = -1.0e30


@simt.kernel
@simt.launch_contract(block=128)
def add_bias(logits: Slice[f32], bias: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(logits[i] + bias[i])


@simt.kernel
@simt.launch_contract(block=128)
def apply_mask(logits: Slice[f32], allowed: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = logits[i]
    if allowed[i] <= 0.0:
        v = f32(NEG_INF)
    if (o := out.get_mut(idx)) is not None:
        o.set(v)


KERNELS = {"bias": add_bias, "mask": apply_mask}


@dataclass
class DigitListGrammar:
    state: str = "start"
    masks: dict[str, np.ndarray] = field(default_factory=dict)

    def allowed(self) -> np.ndarray:
        if self.state not in self.masks:
            m = np.zeros(VOCAB, np.float32)
            m[DIGITS] = 1.0
            if self.state == "digit":
                m[[COMMA, END]] = 1.0
            self.masks[self.state] = m
        return self.masks[self.state]

    def advance(self, token: int) -> None:
        self.state = "digit" if token in DIGITS else "start"


class GuidedDecoder:
    def __init__(self, dev: sk.Device, stream: sk.Stream, bias: np.ndarray) -> None:
        self.stream = stream
        cfg = simt.LaunchConfig1D.for_len(VOCAB, block=128)
        self.launches = {name: k.prepare(cfg, dev) for name, k in KERNELS.items()}
        self.bias = sk.to_device(bias, stream)

    def pick(self, logits: np.ndarray, grammar: DigitListGrammar) -> int:
        raw = sk.to_device(logits, self.stream)
        biased = sk.zeros(VOCAB, f32, self.stream)
        add_bias.launch(self.launches["bias"], self.stream, raw, self.bias, biased)
        allowed = sk.to_device(grammar.allowed(), self.stream)
        masked = sk.zeros(VOCAB, f32, self.stream)
        apply_mask.launch(self.launches["mask"], self.stream, biased, allowed, masked)
        return int(np.argmax(masked.to_numpy(self.stream)))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    bias = np.zeros(VOCAB, np.float32)
    bias[COMMA] = 0.5
    decoder = GuidedDecoder(dev, stream, bias)
    grammar = DigitListGrammar()
    out: list[int] = []
    for _ in range(12):
        token = decoder.pick(rng.standard_normal(VOCAB).astype(np.float32), grammar)
        if token == END:
            break
        out.append(token)
        grammar.advance(token)
    print("generated:", "".join(chr(t) for t in out))


if __name__ == "__main__":
    main()
