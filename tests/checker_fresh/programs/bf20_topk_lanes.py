# fresh-expect: E0499 at line 56
# fresh-note: Per-shard top-k selection splits scores into keep/drop lanes carved from one scratch pool; ScratchPool.lane offsets lanes by the alignment instead of the aligned stride, so the two DisjointSlice outputs overlap.
"""Top-k selection per shard: a SIMT threshold split into two lanes of a scratch pool, then a host sort."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

K = 5


@simt.kernel
@simt.launch_contract(block=32)
def threshold_split(scores: Slice[f32], thresh: f32, keep: DisjointSlice[f32], drop: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (k := keep.get_mut(idx)) is not None:
        if scores[i] >= thresh:
            k.set(scores[i])
        else:
            k.set(f32(-1.0))
    if (d := drop.get_mut(thread.index_1d())) is not None:
        if scores[i] < thresh:
            d.set(scores[i])
        else:
            d.set(f32(-1.0))


def align_up(n: int, align: int) -> int:
    return (n + align - 1) // align * align


class ScratchPool:
    """One allocation, cut into `lanes` aligned lanes of `width` elements."""

    def __init__(self, lanes: int, width: int, stream: sk.Stream, align: int = 32) -> None:
        self.width = width
        self.align = align
        self.stride = align_up(width, align)
        self.buf = sk.zeros(self.stride * lanes, f32, stream)

    def lane(self, i: int) -> sk.DeviceBuffer:
        start = i * self.align
        return self.buf.view(start, start + self.width)


def topk_shard(scores: np.ndarray, pool: ScratchPool, prep: simt.PreparedLaunch, stream: sk.Stream) -> np.ndarray:
    thresh = float(np.sort(scores)[-K])
    dev_scores = sk.to_device(scores, stream)
    keep, drop = pool.lane(0), pool.lane(1)
    threshold_split.launch(prep, stream, dev_scores, thresh, keep, drop)
    kept = keep.to_numpy(stream)
    dropped = drop.to_numpy(stream)
    assert int((dropped >= 0).sum()) == len(scores) - K
    return np.sort(kept[kept >= 0])[::-1]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)
    width = 100
    shards = {f"shard-{s}": rng.random(width).astype(np.float32) for s in range(3)}
    pool = ScratchPool(2, width, stream)
    prep = threshold_split.prepare(simt.LaunchConfig1D.for_len(width, block=32), dev)
    leaders: dict[str, np.ndarray] = {}
    for name, scores in shards.items():
        leaders[name] = topk_shard(scores, pool, prep, stream)
        np.testing.assert_array_equal(leaders[name], np.sort(scores)[-K:][::-1])
    best = max(leaders, key=lambda s: leaders[s][0])
    print(f"top-{K} per shard computed; best shard {best} leads with {leaders[best][0]:.4f}")


if __name__ == "__main__":
    main()
