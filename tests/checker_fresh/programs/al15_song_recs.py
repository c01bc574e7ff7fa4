# fresh-expect: clean
# fresh-note: song recommender that scores the catalogue for a listener with a tile kernel, lends the score tensor to a SIMT kernel through a fresh as_buffer handle to penalise already-played songs in place, then applies a popularity boost tile launch and lends the new tensor again.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SONGS, DIM, T = 64, 16, 16


@tile.kernel
def affinity(out: Partition[f32], songs: Tensor[f32], user: Tensor[f32]) -> None:
    rows = songs.load((tile.bid(0), 0), (T, DIM))
    u = tile.reshape(user.load((0,), (DIM,)), (1, DIM))
    out.store(tile.sum(rows * u, axis=1))


@tile.kernel
def boost(out: Partition[f32], scores: Tensor[f32], plays: Tensor[f32], weight: f32) -> None:
    out.store(tile.load_like(scores, out) + weight * tile.log(tile.load_like(plays, out) + 1.0))


@simt.kernel
@simt.launch_contract(block=32)
def forget_played(history: Slice[i32], scores: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (s := scores.get_mut(idx)) is not None:
        if history[i] > 0:
            s.set(s.get() - f32(100.0))


class Recommender:
    def __init__(self, dev: sk.Device, catalogue: np.ndarray, popularity: np.ndarray) -> None:
        self.stream = dev.new_stream()
        self.songs = tile.from_numpy(catalogue).shared()
        self.popularity = tile.from_numpy(popularity).shared()
        self.forget = forget_played.prepare(simt.LaunchConfig1D.for_len(SONGS, block=32), dev)

    def recommend(self, user_vec: np.ndarray, history: np.ndarray, k: int) -> list[int]:
        out = tile.zeros((SONGS,), f32).partition((T,))
        out, _songs, _user = affinity(out, self.songs, tile.from_numpy(user_vec)).sync_on(self.stream)
        scores = out.unpartition()
        hist = sk.to_device(history.astype(np.int32), self.stream)
        forget_played.launch(self.forget, self.stream, hist, scores.as_buffer())
        boosted = tile.zeros((SONGS,), f32).partition((T,))
        boosted, scores, _pop, _w = boost(boosted, scores, self.popularity, 0.3).sync_on(self.stream)
        final = boosted.unpartition()
        forget_played.launch(self.forget, self.stream, hist, final.as_buffer())  # boost must not revive them
        ranked = np.argsort(-final.to_numpy(self.stream))
        return [int(s) for s in ranked[:k]]


def main() -> None:
    rng = np.random.default_rng(12)
    catalogue = rng.standard_normal((SONGS, DIM)).astype(np.float32)
    popularity = rng.integers(0, 1000, SONGS).astype(np.float32)
    rec = Recommender(sk.Device.cpu(), catalogue, popularity)
    users = {"ana": rng.standard_normal(DIM).astype(np.float32), "bo": rng.standard_normal(DIM).astype(np.float32)}
    for name, vec in users.items():
        history = (rng.random(SONGS) < 0.2).astype(np.int32)
        top = rec.recommend(vec, history, k=5)
        assert not any(history[s] for s in top), "played songs must not be recommended"
        print(f"{name}: {top}")


if __name__ == "__main__":
    main()
