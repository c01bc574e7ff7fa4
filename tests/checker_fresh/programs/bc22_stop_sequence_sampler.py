# fresh-expect: clean
# fresh-note: Streaming sampler (generator) with a presence penalty tile kernel and stop sequences; the request's deadline is checked before each step's launch is built, and when a stop sequence matches the loop breaks only after the step's op has been run.
"""Streaming sampling with a presence penalty and stop sequences: generation ends when the most recent tokens
spell one of the request's stop sequences, or when the request's deadline has passed.
"""

from __future__ import annotations

import time
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

VOCAB = 512
TILE = 128


@tile.kernel
def presence(out: Partition[f32], logits: Tensor[f32], seen: Tensor[f32], penalty: f32) -> None:
    out.store(tile.load_like(logits, out) - tile.load_like(seen, out) * penalty)


class ToyModel:
    def __init__(self, seed: int) -> None:
        self.table = np.random.default_rng(seed).standard_normal((VOCAB, VOCAB)).astype(np.float32)

    def __call__(self, last: int) -> np.ndarray:
        return self.table[last]


class Sampler:
    def __init__(self, model: ToyModel, stream: sk.Stream, penalty: float = 1.5) -> None:
        self.model = model
        self.stream = stream
        self.penalty = penalty

    def generate(self, first: int, stops: list[tuple[int, ...]], max_new: int, deadline: float) -> Iterator[int]:
        seen = np.zeros(VOCAB, np.float32)
        history = [first]
        for _ in range(max_new):
            if time.monotonic() > deadline:
                return
            out = tile.zeros((VOCAB,), f32).partition((TILE,))
            op = presence(out, tile.from_numpy(self.model(history[-1])), tile.from_numpy(seen), self.penalty)
            scored = op.first().unpartition().sync_on(self.stream)
            token = int(np.argmax(scored.to_numpy(self.stream)))
            seen[token] = 1.0
            history.append(token)
            yield token
            if any(tuple(history[-len(s):]) == s for s in stops):
                break


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    sampler = Sampler(ToyModel(seed=22), stream)
    probe = list(sampler.generate(first=3, stops=[], max_new=6, deadline=time.monotonic() + 60))
    stop = (probe[2],)
    tokens = list(sampler.generate(first=3, stops=[stop], max_new=20, deadline=time.monotonic() + 60))
    print("probe:", probe)
    print("with stop", stop, "->", tokens)


if __name__ == "__main__":
    main()
