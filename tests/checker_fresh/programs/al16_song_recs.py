# fresh-expect: E0382 at line 55
# fresh-known-miss: cli,mypy a `functools.cached_property` returning `self.scores.as_buffer()` keeps the first tensor's view after another method moves and rebinds `self.scores`: cached properties are not followed
# fresh-note: playlist session that caches the SIMT view of its score tensor in a functools.cached_property; a tile rerank launch then moves the score tensor and stores the handed-back one, but the later skip-penalty launch still goes through the cached as_buffer handle of the moved tensor.
from __future__ import annotations
from functools import cached_property

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SONGS, DIM, T = 48, 8, 16


@tile.kernel
def affinity(out: Partition[f32], songs: Tensor[f32], user: Tensor[f32]) -> None:
    rows = songs.load((tile.bid(0), 0), (T, DIM))
    u = tile.reshape(user.load((0,), (DIM,)), (1, DIM))
    out.store(tile.sum(rows * u, axis=1))


@tile.kernel
def rerank(out: Partition[f32], scores: Tensor[f32], freshness: Tensor[f32]) -> None:
    s = tile.load_like(scores, out)
    out.store(s * (0.8 + 0.2 * tile.load_like(freshness, out)))


@simt.kernel
@simt.launch_contract(block=16)
def skip_penalty(skips: Slice[i32], scores: DisjointSlice[f32], per_skip: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (s := scores.get_mut(idx)) is not None:
        s.set(s.get() - per_skip * f32(skips[i]))


class Session:
    def __init__(self, dev: sk.Device, catalogue: np.ndarray, user_vec: np.ndarray) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        out = tile.zeros((SONGS,), f32).partition((T,))
        out, _songs, _user = affinity(out, tile.from_numpy(catalogue), tile.from_numpy(user_vec)).sync_on(self.stream)
        self.scores = out.unpartition()
        self.penalty = skip_penalty.prepare(simt.LaunchConfig1D.for_len(SONGS, block=16), dev)

    @cached_property
    def scores_view(self) -> sk.DeviceBuffer:
        """The score vector as a SIMT buffer (lent, not moved)."""
        return self.scores.as_buffer()

    def on_skips(self, skips: np.ndarray) -> None:
        skip_penalty.launch(self.penalty, self.stream, sk.to_device(skips, self.stream), self.scores_view, 0.5)

    def refresh(self, freshness: np.ndarray) -> None:
        out = tile.zeros((SONGS,), f32).partition((T,))
        out, _old, _fresh = rerank(out, self.scores, tile.from_numpy(freshness)).sync_on(self.stream)
        self.scores = out.unpartition()

    def next_up(self, k: int) -> list[int]:
        return [int(i) for i in np.argsort(-self.scores.to_numpy(self.stream))[:k]]


def main() -> None:
    rng = np.random.default_rng(33)
    catalogue = rng.standard_normal((SONGS, DIM)).astype(np.float32)
    session = Session(sk.Device.cpu(), catalogue, rng.standard_normal(DIM).astype(np.float32))
    print("queue:", session.next_up(4))
    for hour in range(3):
        skips = rng.integers(0, 3, SONGS).astype(np.int32)
        session.on_skips(skips)
        session.refresh(rng.random(SONGS).astype(np.float32))
        print(f"hour {hour} queue:", session.next_up(4))


if __name__ == "__main__":
    main()
