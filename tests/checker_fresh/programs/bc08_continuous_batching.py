# fresh-expect: E0505 at line 71
# fresh-note: Continuous-batching scheduler that admits requests into a running batch, starting each request's output projection with `launch_async` and keeping the op and the output buffer in dicts keyed by request id. Bug: `retire` partitions the popped output buffer for the in-place temperature kernel before running the request's pending projection op, which still writes it (E0505).
"""A continuous-batching scheduler (Orca / vLLM style) for a toy decoder head.

Requests wait in a FIFO; each scheduler step admits as many as the batch has room for, and retires the oldest
running request: its logits are scaled by the request's temperature on the device and the next token is
picked on the host.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

VOCAB = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=128)
def project(h: Slice[f32], w: Slice[f32], logits: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := logits.get_mut(idx)) is not None:
        out.set(h[i] * w[i])


@tile.kernel
def temperature(logits: Partition[f32], inv_t: f32) -> None:
    logits.store(logits.load() * inv_t)


@dataclass
class Request:
    rid: int
    hidden: np.ndarray
    temp: float


class Scheduler:
    def __init__(self, w: np.ndarray, max_batch: int, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.max_batch = max_batch
        self.w = sk.to_device(w, stream)
        self.prep = project.prepare(simt.LaunchConfig1D.for_len(VOCAB, block=128), dev)
        self.waiting: deque[Request] = deque()
        self.temps: dict[int, float] = {}
        self.inflight: dict[int, sk.DeviceOp] = {}
        self.outputs: dict[int, sk.DeviceBuffer] = {}

    def submit(self, req: Request) -> None:
        self.waiting.append(req)

    def admit(self, req: Request) -> None:
        h = sk.to_device(req.hidden, self.stream)
        out = sk.zeros(VOCAB, f32, self.stream)
        self.temps[req.rid] = req.temp
        self.outputs[req.rid] = out
        self.inflight[req.rid] = project.launch_async(self.prep, h, self.w, out)

    def retire(self, rid: int) -> int:
        logits = self.outputs.pop(rid)
        parts = logits.partition((TILE,))
        self.inflight.pop(rid).sync_on(self.stream)
        parts, _ = temperature(parts, 1.0 / self.temps.pop(rid)).sync_on(self.stream)
        scaled = parts.unpartition().to_numpy(self.stream)
        return int(np.argmax(scaled))

    def step(self) -> tuple[int, int]:
        while self.waiting and len(self.inflight) < self.max_batch:
            self.admit(self.waiting.popleft())
        rid = next(iter(self.inflight))
        return rid, self.retire(rid)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(42)
    sched = Scheduler(rng.standard_normal(VOCAB).astype(np.float32), max_batch=3, dev=dev, stream=stream)
    for rid in range(5):
        sched.submit(Request(rid, rng.standard_normal(VOCAB).astype(np.float32), temp=0.7 + 0.1 * rid))
    for _ in range(5):
        rid, token = sched.step()
        print(f"request {rid} -> token {token}")


if __name__ == "__main__":
    main()
