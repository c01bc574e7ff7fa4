# fresh-expect: E0502 at line 70
# fresh-note: Inference worker draining a request queue, taking scratch buffers from a LIFO free-list (`queue.LifoQueue`) for a dequantize -> GELU pipeline. Bug: the worker puts `hidden` back on the free-list right after the dequantize launch, so the next `get()` hands the same buffer back as `out` and the GELU launch reads and writes one buffer (E0502).
"""A request worker for a quantized MLP block: int8-style codes are dequantized into a scratch activation,
then passed through GELU into a response buffer.  Scratch buffers live on a LIFO free-list so the most
recently used (cache-warm) buffer is reused first.
"""

from __future__ import annotations

import math
import queue
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

WIDTH = 384
SQRT_2_OVER_PI = 0.7978845608


@simt.kernel
@simt.launch_contract(block=128)
def dequantize(codes: Slice[i32], scale: f32, hidden: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (h := hidden.get_mut(idx)) is not None:
        h.set(f32(codes[i]) * scale)


@simt.kernel
@simt.launch_contract(block=128)
def gelu(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = x[i]
    if (out := y.get_mut(idx)) is not None:
        out.set(0.5 * v * (1.0 + math.tanh(SQRT_2_OVER_PI * (v + 0.044715 * v * v * v))))


@dataclass
class Job:
    job_id: int
    codes: np.ndarray
    scale: float


class Worker:
    def __init__(self, dev: sk.Device, stream: sk.Stream, pool_size: int = 2) -> None:
        self.stream = stream
        self.p_dq = dequantize.prepare(simt.LaunchConfig1D.for_len(WIDTH, block=128), dev)
        self.p_gelu = gelu.prepare(simt.LaunchConfig1D.for_len(WIDTH, block=128), dev)
        self.free: queue.LifoQueue = queue.LifoQueue()
        for _ in range(pool_size):
            self.free.put(sk.zeros(WIDTH, f32, stream))
        self.inbox: queue.Queue = queue.Queue()

    def serve(self) -> dict[int, float]:
        results: dict[int, float] = {}
        while not self.inbox.empty():
            job = self.inbox.get()
            codes = sk.to_device(job.codes, self.stream)
            hidden = self.free.get()
            dequantize.launch(self.p_dq, self.stream, codes, job.scale, hidden)
            self.free.put(hidden)  # activation is computed; recycle the scratch early
            out = self.free.get()
            gelu.launch(self.p_gelu, self.stream, hidden, out)
            results[job.job_id] = float(out.to_numpy(self.stream).mean())
            self.free.put(out)
        return results


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    worker = Worker(dev, stream)
    rng = np.random.default_rng(1)
    for job_id in range(3):
        codes = rng.integers(-127, 128, WIDTH).astype(np.int32)
        worker.inbox.put(Job(job_id, codes, scale=0.02))
    for job_id, mean in worker.serve().items():
        print(f"job {job_id}: mean activation {mean:.4f}")


if __name__ == "__main__":
    main()
