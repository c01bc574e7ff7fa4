# fresh-expect: clean
# fresh-note: a recommender builds a functools.partial of score_items.launch_unchecked inside a setup function's simt.unsafe block, and every later call of it in the per-user loop is itself inside a with simt.unsafe() block.
"""Top-k item recommendations from dot-product scores of learned embeddings.

For each user the scoring kernel computes the dot product of the user's embedding with every item
embedding; the kernel is launched unchecked in the per-user loop to avoid re-validating a configuration
that never changes.  The top items are picked on the host and checked against numpy.
"""

from __future__ import annotations

import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
DIM = 16
TOP_K = 5


@simt.kernel
@simt.launch_contract(block=BLOCK)
def score_items(items: Slice[f32], user: Slice[f32], scores: DisjointSlice[f32], dim: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := scores.get_mut(idx)) is not None:
        acc = f32(0.0)
        for d in range(dim):
            acc += items[i * dim + d] * user[d]
        out.set(acc)


def build_launchers(n_items: int, stream: sk.Stream) -> dict:
    config = simt.LaunchConfig1D.for_len(n_items, block=BLOCK)
    with simt.unsafe():
        return {"score": functools.partial(score_items.launch_unchecked, config, stream)}


def top_k(scores: np.ndarray, seen: set[int], k: int) -> list[int]:
    order = np.argsort(-scores, kind="stable")
    return [int(i) for i in order if int(i) not in seen][:k]


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(31)
    n_items, n_users = 600, 6
    item_emb = (rng.standard_normal((n_items, DIM)) / np.sqrt(DIM)).astype(np.float32)
    user_emb = (rng.standard_normal((n_users, DIM)) / np.sqrt(DIM)).astype(np.float32)
    history = {u: set(rng.choice(n_items, 20, replace=False).tolist()) for u in range(n_users)}

    items = sk.to_device(item_emb.ravel(), stream)
    user = sk.zeros(DIM, f32, stream)
    scores = sk.zeros(n_items, f32, stream)
    launchers = build_launchers(n_items, stream)
    recommendations: dict[int, list[int]] = {}
    for u in range(n_users):
        user.copy_from_numpy(user_emb[u])
        with simt.unsafe():
            launchers["score"](items, user, scores, DIM)
        got = scores.to_numpy(stream)
        np.testing.assert_allclose(got, item_emb @ user_emb[u], rtol=1e-4, atol=1e-5)
        recommendations[u] = top_k(got, history[u], TOP_K)
    for u, recs in recommendations.items():
        print(f"user {u}: {recs}")


if __name__ == "__main__":
    main()
