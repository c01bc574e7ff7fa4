# fresh-expect: W0003 at line 51
# fresh-note: Token streaming generator that applies a frequency penalty and temperature to each step's logits with a tile kernel and stops when the client disconnects (a threading.Event set by a callback). Bug: the generator builds the step's penalty launch before checking the cancellation flag and returns on cancel, dropping the op unrun (W0003 at the launch).
"""Streaming generation with a frequency penalty (as in the OpenAI API's `frequency_penalty`): each step the
logits are lowered by `penalty * count[token]` and divided by the temperature on the device, and the client
can disconnect at any time.
"""

from __future__ import annotations

import threading
from typing import Callable, Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

VOCAB = 512
TILE = 128


@tile.kernel
def penalize(out: Partition[f32], logits: Tensor[f32], counts: Tensor[f32], penalty: f32, inv_t: f32) -> None:
    x = tile.load_like(logits, out) - tile.load_like(counts, out) * penalty
    out.store(x * inv_t)


class ToyModel:
    def __init__(self, seed: int) -> None:
        self.emb = np.random.default_rng(seed).standard_normal((VOCAB, VOCAB)).astype(np.float32)

    def __call__(self, last: int) -> np.ndarray:
        return self.emb[last]


class Generator:
    def __init__(self, model: ToyModel, stream: sk.Stream, penalty: float = 0.8, temperature: float = 0.7) -> None:
        self.model = model
        self.stream = stream
        self.penalty = penalty
        self.inv_t = 1.0 / temperature

    def stream_tokens(self, first: int, max_new: int, cancelled: threading.Event) -> Iterator[int]:
        counts = np.zeros(VOCAB, np.float32)
        last = first
        for _ in range(max_new):
            out = tile.zeros((VOCAB,), f32).partition((TILE,))
            logits = tile.from_numpy(self.model(last))
            op = penalize(out, logits, tile.from_numpy(counts), self.penalty, self.inv_t)
            if cancelled.is_set():
                return
            out, *_ = op.sync_on(self.stream)
            last = int(np.argmax(out.unpartition().to_numpy(self.stream)))
            counts[last] += 1.0
            yield last


class Client:
    def __init__(self, hang_up_after: int) -> None:
        self.received: list[int] = []
        self.hang_up_after = hang_up_after
        self.gone = threading.Event()

    def on_token(self, token: int) -> None:
        self.received.append(token)
        if len(self.received) >= self.hang_up_after:
            self.gone.set()


def serve(gen: Generator, client: Client, on_token: Callable[[int], None]) -> int:
    for token in gen.stream_tokens(first=1, max_new=16, cancelled=client.gone):
        on_token(token)
    return len(client.received)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    gen = Generator(ToyModel(seed=13), stream)
    client = Client(hang_up_after=4)
    sent = serve(gen, client, client.on_token)
    print(f"sent {sent} tokens before the client hung up:", client.received)


if __name__ == "__main__":
    main()
