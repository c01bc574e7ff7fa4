# fresh-expect: E0382 at line 65
# idiom: constant inputs built once in __init__ and read by two launches per epoch; only one is .shared() (bug)
"""Low-rank factorisation of a small user x item ratings matrix by alternating gradient steps.

`ratings ~ U @ V.T` on the observed entries only.  Each epoch updates the user factors with
the item factors fixed, then the item factors with the new user factors, both on the tile
track.  The ratings and the observation mask never change, so they are uploaded once.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

USERS, ITEMS, RANK = 48, 32, 8
BM, BN = 16, 16


@tile.kernel
def update_users(u_new: Annotated[Partition[f32], tile.Dims(BM, RANK)], r: Tensor[f32], w: Tensor[f32],
                 u: Tensor[f32], v: Tensor[f32], lr: f32, lam: f32) -> None:
    i = tile.bid(0)
    u_blk = u.load((i, 0), (BM, RANK))
    v_all = v.load((0, 0), (ITEMS, RANK))
    pred = tile.matmul(u_blk, tile.transpose(v_all), tile.zeros((BM, ITEMS), f32))
    err = w.load((i, 0), (BM, ITEMS)) * (pred - r.load((i, 0), (BM, ITEMS)))
    grad = tile.matmul(err, v_all, tile.zeros((BM, RANK), f32)) + u_blk * lam
    u_new.store(u_blk - grad * lr)


@tile.kernel
def update_items(v_new: Annotated[Partition[f32], tile.Dims(BN, RANK)], r: Tensor[f32], w: Tensor[f32],
                 u: Tensor[f32], v: Tensor[f32], lr: f32, lam: f32) -> None:
    j = tile.bid(0)
    v_blk = v.load((j, 0), (BN, RANK))
    u_all = u.load((0, 0), (USERS, RANK))
    pred = tile.matmul(u_all, tile.transpose(v_blk), tile.zeros((USERS, BN), f32))
    err = tile.transpose(w.load((0, j), (USERS, BN)) * (pred - r.load((0, j), (USERS, BN))))
    grad = tile.matmul(err, u_all, tile.zeros((BN, RANK), f32)) + v_blk * lam
    v_new.store(v_blk - grad * lr)


class Factorizer:
    def __init__(self, ratings: np.ndarray, stream: sk.Stream, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.stream = stream
        self.host_ratings = ratings
        self.ratings = tile.from_numpy(ratings).shared()
        self.mask = tile.from_numpy((ratings > 0).astype(np.float32))
        self.u = tile.from_numpy((0.3 * rng.standard_normal((USERS, RANK))).astype(np.float32)).sync_on(stream)
        self.v = tile.from_numpy((0.3 * rng.standard_normal((ITEMS, RANK))).astype(np.float32)).sync_on(stream)

    def epoch(self, lr: float, lam: float) -> None:
        out = tile.zeros((USERS, RANK), f32).partition((BM, RANK))
        op = update_users(out, self.ratings, self.mask, self.u, self.v, lr, lam)
        u_new, _, _, _, self.v, _, _ = op.sync_on(self.stream)
        self.u = u_new.unpartition()
        out = tile.zeros((ITEMS, RANK), f32).partition((BN, RANK))
        op = update_items(out, self.ratings, self.mask, self.u, self.v, lr, lam)
        v_new, _, _, self.u, _, _, _ = op.sync_on(self.stream)
        self.v = v_new.unpartition()

    def rmse(self) -> float:
        u, v = self.u.to_numpy(self.stream), self.v.to_numpy(self.stream)
        observed = self.host_ratings > 0
        diff = (u @ v.T - self.host_ratings)[observed]
        return float(np.sqrt(np.mean(diff * diff)))


def synthetic_ratings(seed: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.uniform(0.5, 1.5, (USERS, 3)) @ rng.uniform(0.5, 1.5, (3, ITEMS))
    keep = rng.random((USERS, ITEMS)) < 0.4
    return np.where(keep, np.clip(truth, 1.0, 5.0), 0.0).astype(np.float32)


def main() -> None:
    model = Factorizer(synthetic_ratings(), sk.Device.cpu().new_stream())
    history = [model.rmse()]
    for _ in range(30):
        model.epoch(lr=0.02, lam=0.01)
        history.append(model.rmse())
    assert history[-1] < 0.5 * history[0], history
    print(f"rmse {history[0]:.3f} -> {history[-1]:.3f} after {len(history) - 1} epochs")


if __name__ == "__main__":
    main()
