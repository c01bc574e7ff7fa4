# fresh-expect: clean
# recommender candidate scoring: block-size-autotuned SIMT dot products, per-user top-k picked on the host
from __future__ import annotations

import heapq

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

DIM = 16


@simt.autotune(configs=[64, 128, 256], key=["items"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def score(items: Slice[f32], user: Slice[f32], popularity: Slice[f32], scores: DisjointSlice[f32],
          pop_weight: f32, dim: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := scores.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(dim):
            acc += items[i * dim + k] * user[k]
        o.set(acc + pop_weight * popularity[i])


def top_k(scores: np.ndarray, seen: set[int], k: int) -> list[tuple[float, int]]:
    fresh = ((float(s), j) for j, s in enumerate(scores) if j not in seen)
    return heapq.nlargest(k, fresh)


class Catalog:
    def __init__(self, embeddings: np.ndarray, popularity: np.ndarray, stream: sk.Stream) -> None:
        self.size = embeddings.shape[0]
        self.stream = stream
        self.items = sk.to_device(embeddings.ravel(), stream)
        self.popularity = sk.to_device(np.log1p(popularity).astype(np.float32), stream)
        self.scores = sk.zeros(self.size, f32, stream)

    def recommend(self, user_vec: np.ndarray, seen: set[int], k: int = 5) -> list[tuple[float, int]]:
        user = sk.to_device(user_vec.astype(np.float32), self.stream)
        score.launch(self.stream, self.items, user, self.popularity, self.scores, 0.05, DIM)
        return top_k(self.scores.to_numpy(self.stream), seen, k)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(10)
    n_items = 2000
    emb = (rng.standard_normal((n_items, DIM)) / np.sqrt(DIM)).astype(np.float32)
    pop = rng.pareto(1.5, n_items) * 100
    catalog = Catalog(emb, pop, stream)
    users = {name: rng.standard_normal(DIM) for name in ("ana", "bo", "chen")}
    history = {name: set(rng.integers(0, n_items, 20).tolist()) for name in users}
    for name, vec in users.items():
        recs = catalog.recommend(vec, history[name])
        best_score, best_item = recs[0]
        expected = emb @ vec.astype(np.float32) + 0.05 * np.log1p(pop).astype(np.float32)
        assert abs(expected[best_item] - best_score) < 1e-3
        print(f"{name:>5}: " + ", ".join(f"item {j} ({s:.2f})" for s, j in recs))


if __name__ == "__main__":
    main()
