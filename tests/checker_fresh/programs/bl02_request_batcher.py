# fresh-expect: clean
# fresh-note: request batcher whose workspace pool caches scratch buffers per (tag, size), so the packed input and the activation output of the scale_bias launch are distinct buffers.
"""Request batcher for an inference server.

Requests of different lengths are queued, packed into one flat activation buffer per batch and run
through a scale-and-bias SIMT kernel.  Device memory comes from a small workspace pool so that
steady-state batches do not allocate.
"""

from __future__ import annotations

import dataclasses
from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
MAX_BATCH_TOKENS = 96


@simt.kernel
@simt.launch_contract(block=BLOCK)
def scale_bias(x: Slice[f32], bias: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(alpha * x[i] + bias[i % len(bias)])


@dataclasses.dataclass
class Request:
    rid: int
    tokens: np.ndarray


@dataclasses.dataclass
class WorkspacePool:
    stream: sk.Stream
    by_key: dict[tuple[str, int], sk.DeviceBuffer] = dataclasses.field(default_factory=dict)
    hits: int = 0

    def acquire(self, tag: str, n: int) -> sk.DeviceBuffer:
        """Hand out the scratch buffer of `n` floats reserved for `tag`."""
        buf = self.by_key.get((tag, n))
        if buf is None:
            buf = sk.zeros(n, f32, self.stream)
            self.by_key[(tag, n)] = buf
        else:
            self.hits += 1
        return buf


class RequestBatcher:
    def __init__(self, device: sk.Device, alpha: float = 0.5) -> None:
        self.device = device
        self.stream = device.new_stream()
        self.pool = WorkspacePool(self.stream)
        self.queue: deque[Request] = deque()
        self.alpha = alpha
        self.bias = sk.to_device(np.linspace(0.0, 1.0, 8, dtype=np.float32), self.stream)
        self.results: dict[int, np.ndarray] = {}

    def submit(self, rid: int, tokens: np.ndarray) -> None:
        self.queue.append(Request(rid, tokens.astype(np.float32)))

    def _take_batch(self) -> list[Request]:
        batch: list[Request] = []
        used = 0
        while self.queue:
            nxt = self.queue[0]
            if used + len(nxt.tokens) > MAX_BATCH_TOKENS:
                break
            batch.append(self.queue.popleft())
            used += len(nxt.tokens)
        return batch

    def flush(self) -> int:
        batch = self._take_batch()
        if not batch:
            return 0
        host = np.concatenate([r.tokens for r in batch])
        n = MAX_BATCH_TOKENS
        padded = np.zeros(n, np.float32)
        padded[: len(host)] = host
        packed = self.pool.acquire("packed", n)
        packed.copy_from_numpy(padded, self.stream)
        activations = self.pool.acquire("activations", n)
        prepared = scale_bias.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.device)
        scale_bias.launch(prepared, self.stream, packed, self.bias, activations, self.alpha)
        flat = activations.to_numpy(self.stream)
        offset = 0
        for r in batch:
            self.results[r.rid] = flat[offset : offset + len(r.tokens)].copy()
            offset += len(r.tokens)
        return len(batch)


def main() -> None:
    batcher = RequestBatcher(sk.Device.cpu())
    rng = np.random.default_rng(7)
    for rid, length in enumerate([17, 30, 25, 40, 12]):
        batcher.submit(rid, rng.standard_normal(length))
    flushed = 0
    while batcher.queue:
        flushed += batcher.flush()
    print(f"served {flushed} requests, pool hits={batcher.pool.hits}")


if __name__ == "__main__":
    main()
