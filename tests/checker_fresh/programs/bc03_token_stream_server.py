# fresh-expect: clean
# fresh-note: Token-streaming server that keeps, per open stream, a pending `launch_async` logits op and its output buffer in dicts; `next_token` runs the stream's pending op before moving its buffer into the in-place repetition-penalty tile kernel.
"""Server-sent-events style token streaming: several client streams share the device, each with its own
logits buffer.  `open_stream` starts the stream's logits computation asynchronously; `next_token` waits for
it, applies a repetition penalty on the device and picks the next token greedily.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

VOCAB = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def lm_head(h: Slice[f32], bias: Slice[f32], logits: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := logits.get_mut(idx)) is not None:
        out.set(h[i] + bias[i])


@tile.kernel
def penalize(logits: Partition[f32], seen: Tensor[f32], penalty: f32) -> None:
    x = logits.load()
    hit = tile.load_like(seen, logits) > 0.0
    logits.store(tile.where(hit, tile.where(x > 0.0, x / penalty, x * penalty), x))


@dataclass
class StreamState:
    sid: str
    seen: np.ndarray = field(default_factory=lambda: np.zeros(VOCAB, np.float32))
    tokens: list[int] = field(default_factory=list)


class StreamingServer:
    def __init__(self, bias: np.ndarray, dev: sk.Device, stream: sk.Stream, penalty: float = 1.3) -> None:
        self.stream = stream
        self.penalty = penalty
        self.bias = sk.to_device(bias, stream)
        self.prep = lm_head.prepare(simt.LaunchConfig1D.for_len(VOCAB, block=64), dev)
        self.states: dict[str, StreamState] = {}
        self.pending: dict[str, sk.DeviceOp] = {}
        self.logits: dict[str, sk.DeviceBuffer] = {}

    def open_stream(self, sid: str, hidden: np.ndarray) -> None:
        state = self.states.setdefault(sid, StreamState(sid))
        h = sk.to_device(hidden, self.stream)
        out = sk.zeros(VOCAB, f32, self.stream)
        self.logits[sid] = out
        self.pending[sid] = lm_head.launch_async(self.prep, h, self.bias, out)
        state.tokens.append(-1)

    def next_token(self, sid: str) -> int:
        state = self.states[sid]
        buf = self.logits.pop(sid)
        self.pending.pop(sid).sync_on(self.stream)
        parts = buf.partition((TILE,))
        parts, _seen, _p = penalize(parts, tile.from_numpy(state.seen), self.penalty).sync_on(self.stream)
        token = int(np.argmax(parts.unpartition().to_numpy(self.stream)))
        state.seen[token] = 1.0
        state.tokens[-1] = token
        return token


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(9)
    server = StreamingServer(rng.standard_normal(VOCAB).astype(np.float32) * 0.1, dev, stream)
    for step in range(4):
        for sid in ("alice", "bob"):
            server.open_stream(sid, rng.standard_normal(VOCAB).astype(np.float32))
        for sid in ("bob", "alice"):
            server.next_token(sid)
    for sid, state in server.states.items():
        print(sid, state.tokens)


if __name__ == "__main__":
    main()
