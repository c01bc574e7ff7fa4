# fresh-expect: E0133 at line 29
# fresh-known-false-alarm: cli,mypy false E0133 at 30 and false E0133 at 34: the helper's later shared-array accesses, each outside an unsafe block as rustc reports every one, which the runtime never reaches once line 29 raises
# fresh-note: asyncio softmax driver whose kernel calls the @simt.device helper block_total inside `with simt.unsafe():`, but unsafe is lexical and helpers do not inherit it, so the helper's simt.shared_array (line 28) runs outside an unsafe block.
"""An asyncio serving driver that normalizes per-request score rows on the device.

Requests arrive on an `asyncio.Queue`; the consumer batches whatever is waiting, packs one request per
thread block and runs a SIMT kernel that turns each row of scores into probabilities.  The row total is
computed by a `@simt.device` helper with a block-shared scratch array.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ROW = 32  # scores per request = threads per block


@simt.device
def block_total(v: f32, t: int) -> f32:
    scratch = simt.shared_array(f32, ROW)
    scratch[t] = v
    thread.sync_threads()
    total = f32(0.0)
    for k in range(ROW):
        total += scratch[k]
    thread.sync_threads()
    return total


@simt.kernel
@simt.launch_contract(block=ROW)
def row_softmax(scores: Slice[f32], probs: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    t = thread.thread_idx_x()
    e = f32(0.0)
    if i < len(scores):
        e = math.exp(scores[i])
    with simt.unsafe():  # the helper indexes shared memory with this thread's own slot
        total = block_total(e, t)
    if (out := probs.get_mut(idx)) is not None:
        out.set(e / total)


@dataclass
class ScoreRequest:
    rid: int
    scores: np.ndarray
    done: asyncio.Future


class SoftmaxEngine:
    def __init__(self, device: sk.Device, max_batch: int = 4) -> None:
        self.device = device
        self.stream = device.new_stream()
        self.max_batch = max_batch
        self.batches = 0

    def run_batch(self, batch: list[ScoreRequest]) -> np.ndarray:
        n = len(batch) * ROW
        packed = sk.to_device(np.concatenate([r.scores for r in batch]).astype(np.float32), self.stream)
        probs = sk.zeros(n, f32, self.stream)
        prepared = row_softmax.prepare(simt.LaunchConfig1D.for_len(n, block=ROW), self.device)
        row_softmax.launch(prepared, self.stream, packed, probs)
        self.batches += 1
        return probs.to_numpy(self.stream).reshape(len(batch), ROW)

    async def consume(self, queue: asyncio.Queue) -> None:
        while True:
            first = await queue.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < self.max_batch and not queue.empty():
                nxt = queue.get_nowait()
                if nxt is None:
                    queue.put_nowait(None)
                    break
                batch.append(nxt)
            try:
                rows = self.run_batch(batch)
            except Exception as err:  # fail the waiting clients instead of hanging them
                for req in batch:
                    req.done.set_exception(err)
                return
            for req, row in zip(batch, rows):
                req.done.set_result(row)


async def client(queue: asyncio.Queue, rid: int, rng: np.random.Generator) -> np.ndarray:
    fut = asyncio.get_running_loop().create_future()
    await queue.put(ScoreRequest(rid, rng.standard_normal(ROW), fut))
    return await fut


async def main_async() -> None:
    engine = SoftmaxEngine(sk.Device.cpu())
    queue: asyncio.Queue = asyncio.Queue()
    rng = np.random.default_rng(17)
    worker = asyncio.create_task(engine.consume(queue))
    rows = await asyncio.gather(*(client(queue, rid, rng) for rid in range(6)))
    await queue.put(None)
    await worker
    assert all(abs(float(r.sum()) - 1.0) < 1e-5 for r in rows)
    print(f"{len(rows)} requests in {engine.batches} batches, row sums ok")


if __name__ == "__main__":
    asyncio.run(main_async())
