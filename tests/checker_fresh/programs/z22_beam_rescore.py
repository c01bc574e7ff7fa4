# fresh-expect: E0382 at line 49
# (fixed: heapq.nsmallest holds the heap's tuples: a loop over it takes the pushed tensors, calls.bind_selected_iteration)
"""Beam rescoring: candidate score vectors live on the device in a min-heap keyed by
negative score; the best candidate is popped and sharpened by a tile kernel, then the
leaderboard captured before rescoring is printed."""
from __future__ import annotations

import heapq

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

VOCAB = 256
TILE = 64
BEAM = 3


@tile.kernel
def sharpen(z: Partition[f32], logits: Tensor[f32], temperature: f32) -> None:
    z.store(tile.load_like(logits, z) / temperature)


def candidates(stream: sk.Stream, count: int, seed: int = 4):
    rng = np.random.default_rng(seed)
    for i in range(count):
        host = rng.standard_normal(VOCAB).astype(np.float32)
        yield float(host.max()), i, tile.from_numpy(host).sync_on(stream)


def main() -> None:
    stream = sk.Device.default().new_stream()
    heap: list[tuple[float, int, Tensor]] = []
    for score, i, logits in candidates(stream, 6):
        heapq.heappush(heap, (-score, i, logits))

    leaders = heapq.nsmallest(BEAM, heap)  # the leaderboard before rescoring

    _, best_id, best = heapq.heappop(heap)
    out = tile.zeros((VOCAB,), f32).partition((TILE,))
    out, best, _ = sharpen(out, best, 0.5).sync_on(stream)
    refined = out.unpartition().to_numpy(stream)
    print(f"candidate {best_id} sharpened: max {refined.max():.3f}")

    for rank, (neg, i, logits) in enumerate(leaders, start=1):
        print(f"#{rank} candidate {i}: score {-neg:.3f}, mean logit {float(logits.to_numpy(stream).mean()):+.4f}")


if __name__ == "__main__":
    main()
