# fresh-expect: clean
# fresh-note: Embedding service worker that drains a request queue, taking the intermediate activation from a `queue.LifoQueue` scratch free-list and the response buffer from a separate response free-list for an add-positions -> layer-scale pipeline; the scratch buffer is recycled only after the second launch has read it.
"""An embedding microservice: each request carries token embeddings; the worker adds positional embeddings
and applies a learned per-channel layer scale, then returns the pooled vector.  Scratch buffers are
recycled through LIFO free-lists, one for intermediate activations and one for responses.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DIM = 256


@simt.kernel
@simt.launch_contract(block=128)
def add_positions(tok: Slice[f32], pos: Slice[f32], hidden: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (h := hidden.get_mut(idx)) is not None:
        h.set(tok[i] + pos[i])


@simt.kernel
@simt.launch_contract(block=128)
def layer_scale(x: Slice[f32], gamma: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(x[i] * gamma[i])


@dataclass
class EmbedRequest:
    req_id: str
    tokens: np.ndarray


class EmbedWorker:
    def __init__(self, dev: sk.Device, stream: sk.Stream, pool_size: int = 3) -> None:
        self.stream = stream
        cfg = simt.LaunchConfig1D.for_len(DIM, block=128)
        self.p_pos = add_positions.prepare(cfg, dev)
        self.p_scale = layer_scale.prepare(cfg, dev)
        self.pos = sk.to_device(np.sin(np.arange(DIM, dtype=np.float32) / 16.0), stream)
        self.gamma = sk.to_device(np.full(DIM, 0.5, np.float32), stream)
        self.scratch: queue.LifoQueue = queue.LifoQueue()
        self.responses: queue.LifoQueue = queue.LifoQueue()
        for _ in range(pool_size):
            self.scratch.put(sk.zeros(DIM, f32, stream))
            self.responses.put(sk.zeros(DIM, f32, stream))
        self.requests: queue.Queue = queue.Queue()

    def drain(self) -> dict[str, float]:
        done: dict[str, float] = {}
        while not self.requests.empty():
            req = self.requests.get()
            tok = sk.to_device(req.tokens, self.stream)
            hidden = self.scratch.get()
            add_positions.launch(self.p_pos, self.stream, tok, self.pos, hidden)
            out = self.responses.get()
            layer_scale.launch(self.p_scale, self.stream, hidden, self.gamma, out)
            self.scratch.put(hidden)  # the scaled copy is in `out` now
            done[req.req_id] = float(out.to_numpy(self.stream).sum())
            self.responses.put(out)
        return done


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    worker = EmbedWorker(dev, stream)
    rng = np.random.default_rng(4)
    for name in ("doc-a", "doc-b", "query"):
        worker.requests.put(EmbedRequest(name, rng.standard_normal(DIM).astype(np.float32)))
    for name, pooled in worker.drain().items():
        print(f"{name}: pooled {pooled:+.3f}")


if __name__ == "__main__":
    main()
