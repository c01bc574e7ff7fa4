# fresh-expect: clean
# fresh-note: double-buffered staging ring whose consume() stores the staging tensor handed back by sync_on into its slot, so the next prefetch into that slot partitions a live tensor.
"""Double-buffered host-to-device staging for a streaming feature pipeline (tile track).

Two staging tensors live on the device for the whole run.  While chunk i is being blended with the running
bias, chunk i+1 is copied into the other staging slot, so the copy and the compute overlap on a GPU.  The
staging memory is reused: a refill writes into the slot's existing tensor through a partitioned copy kernel.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CHUNK = 256
TILE = 64


@tile.kernel
def stage_copy(dst: Partition[f32], src: Tensor[f32]) -> None:
    dst.store(tile.load_like(src, dst))


@tile.kernel
def blend(out: Partition[f32], staged: Tensor[f32], bias: Tensor[f32]) -> None:
    x = tile.load_like(staged, out)
    b = tile.load_like(bias, out)
    out.store(x * 0.5 + b)


def host_chunks(count: int, seed: int = 3) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield rng.standard_normal(CHUNK).astype(np.float32)


class DoubleBufferedStager:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.slots: list[Tensor] = [tile.zeros((CHUNK,), f32).sync_on(stream) for _ in range(2)]
        self.bias = tile.full((CHUNK,), 0.25, f32).sync_on(stream)
        self.copies = 0

    def prefetch(self, slot: int, chunk: np.ndarray) -> None:
        """Copy `chunk` into the slot's staging tensor (reusing its memory)."""
        dst = self.slots[slot].partition((TILE,))
        dst, _src = stage_copy(dst, tile.from_numpy(chunk)).sync_on(self.stream)
        self.slots[slot] = dst.unpartition()
        self.copies += 1

    def consume(self, slot: int) -> np.ndarray:
        out = tile.zeros((CHUNK,), f32).partition((TILE,))
        out, self.slots[slot], self.bias = blend(out, self.slots[slot], self.bias).sync_on(self.stream)
        return out.unpartition().to_numpy(self.stream)


def run_pipeline(num_chunks: int) -> list[np.ndarray]:
    stream = sk.Device.cpu().new_stream()
    stager = DoubleBufferedStager(stream)
    chunks = list(host_chunks(num_chunks))
    results: list[np.ndarray] = []
    stager.prefetch(0, chunks[0])
    for i in range(num_chunks):
        nxt = i + 1
        if nxt < num_chunks:
            stager.prefetch(nxt % 2, chunks[nxt])
        results.append(stager.consume(i % 2))
    else:
        print(f"staged {stager.copies} chunks through 2 slots")
    for got, want in zip(results, chunks):
        np.testing.assert_allclose(got, want * 0.5 + 0.25, rtol=1e-6)
    return results


def main() -> None:
    out = run_pipeline(5)
    print("pipeline ok:", len(out), "chunks, first mean", float(out[0].mean()))


if __name__ == "__main__":
    main()
