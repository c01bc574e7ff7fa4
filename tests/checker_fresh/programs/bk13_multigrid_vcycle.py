# fresh-expect: E0382 at line 98
# fresh-known-miss: cli,mypy a generator method (`self.pairs()`) yielding items of `self.levels` at computed indices, iterated twice: the second loop's items are not related to the first loop's moves
# fresh-note: A multigrid V-cycle whose `restrict_residual()` discards the fine-level solution handed back by the `residual` launch (`_`), so the upward pass's `correct()` passes the moved `fine.u` to `prolong`.
"""Geometric multigrid V-cycles for -u'' = f on [0, 1], every level operation a Tile kernel.

Levels have 63, 31, 15 and 7 interior points; weighted Jacobi smoothing, full-weighting restriction of the
residual and linear prolongation of the coarse correction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

T = 8


@tile.function
def neighbours(u, i, n):
    left = tile.gather(u, i - 1, mask=i >= 1, other=0.0)
    right = tile.gather(u, i + 1, mask=i + 1 < n, other=0.0)
    return left + right


@tile.kernel
def smooth(z: Partition[f32], u: Tensor[f32], f: Tensor[f32], h2: f32, w: f32) -> None:
    i = tile.iota(T, i32) + tile.bid(0) * T
    jac = 0.5 * (neighbours(u, i, u.shape[0]) + h2 * tile.load_like(f, z))
    z.store((1.0 - w) * tile.load_like(u, z) + w * jac)


@tile.kernel
def residual(r: Partition[f32], u: Tensor[f32], f: Tensor[f32], h2: f32) -> None:
    i = tile.iota(T, i32) + tile.bid(0) * T
    au = (2.0 * tile.load_like(u, r) - neighbours(u, i, u.shape[0])) / h2
    r.store(tile.load_like(f, r) - au)


@tile.kernel
def restrict(zc: Partition[f32], r: Tensor[f32]) -> None:
    j = 2 * (tile.iota(T, i32) + tile.bid(0) * T) + 1
    zc.store(0.25 * tile.gather(r, j - 1) + 0.5 * tile.gather(r, j) + 0.25 * tile.gather(r, j + 1))


@tile.kernel
def prolong(z: Partition[f32], u: Tensor[f32], e: Tensor[f32]) -> None:
    i = tile.iota(T, i32) + tile.bid(0) * T
    odd = (i % 2) == 1
    k = i // 2
    at_odd = tile.gather(e, k, mask=odd, other=0.0)
    between = 0.5 * (tile.gather(e, k - 1, mask=k >= 1, other=0.0) + tile.gather(e, k, other=0.0))
    z.store(tile.load_like(u, z) + tile.where(odd, at_odd, between))


@dataclass
class Level:
    n: int
    u: Tensor
    f: Tensor

    @property
    def h2(self) -> float:
        return (1.0 / (self.n + 1)) ** 2


def fresh(n: int) -> sk.DeviceOp:
    return tile.zeros((n,), f32).partition((T,))


class Multigrid:
    def __init__(self, levels: list[Level], stream: sk.Stream, pre: int = 2, post: int = 2) -> None:
        self.levels, self.stream, self.pre, self.post = levels, stream, pre, post

    def pairs(self, downward: bool = True) -> Iterator[tuple[Level, Level]]:
        order = range(len(self.levels) - 1)
        for k in (order if downward else reversed(order)):
            yield self.levels[k], self.levels[k + 1]

    def relax(self, lv: Level, sweeps: int) -> None:
        for _ in range(sweeps):
            z, _, lv.f, _, _ = smooth(fresh(lv.n), lv.u, lv.f, lv.h2, 2.0 / 3.0).sync_on(self.stream)
            lv.u = z.unpartition()

    def restrict_residual(self, fine: Level, coarse: Level) -> None:
        r, _, fine.f, _ = residual(fresh(fine.n), fine.u, fine.f, fine.h2).sync_on(self.stream)
        zc, _ = restrict(fresh(coarse.n), r.unpartition()).sync_on(self.stream)
        coarse.f = zc.unpartition()
        coarse.u = tile.zeros((coarse.n,), f32).sync_on(self.stream)

    def correct(self, fine: Level, coarse: Level) -> None:
        z, _, coarse.u = prolong(fresh(fine.n), fine.u, coarse.u).sync_on(self.stream)
        fine.u = z.unpartition()

    def vcycle(self) -> None:
        for fine, coarse in self.pairs():
            self.relax(fine, self.pre)
            self.restrict_residual(fine, coarse)
        self.relax(self.levels[-1], 30)
        for fine, coarse in self.pairs(downward=False):
            self.correct(fine, coarse)
            self.relax(fine, self.post)

    def residual_norm(self) -> float:
        top = self.levels[0]
        r, top.u, top.f, _ = residual(fresh(top.n), top.u, top.f, top.h2).sync_on(self.stream)
        return float(np.abs(r.unpartition().to_numpy(self.stream)).max())


def build(stream: sk.Stream, n: int = 63, depth: int = 4) -> list[Level]:
    levels = []
    for _ in range(depth):
        levels.append(Level(n, tile.zeros((n,), f32).sync_on(stream), tile.ones((n,), f32).sync_on(stream)))
        n = (n - 1) // 2
    return levels


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    mg = Multigrid(build(stream), stream)
    for cycle in range(4):
        mg.vcycle()
        print(f"cycle {cycle}: max residual {mg.residual_norm():.3e}")


if __name__ == "__main__":
    main()
