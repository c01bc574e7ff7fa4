"""Thread mappings of tiles in registers: which thread holds which elements.

A layout is a list of *groups*: runs of `width` slots that hold consecutive elements along the tile's last
axis (one vector load/store).  `coords(g)` gives, as LLVM i64 values, the tile coordinates of a group's first
element for the running thread.

- `Blocked(shape, vec, T)`: the flat row-major element index of slot `v` of group `c` is
  `(c * T + tid) * vec + v`, so a warp covers `32 * vec` consecutive elements per group: coalesced,
  `vec * itemsize`-byte accesses (16 bytes for f32).  When the tile has fewer than `T * vec` elements some
  threads hold nothing (`partial`; their groups are inactive).
- `Mma(shape, warps_m, warps_n)`: the accumulator layout of `mma.sync.m16n8k16` (per 16x8 fragment lane
  `l` holds rows `l/4` and `l/4 + 8`, columns `2*(l%4) + {0, 1}`), each warp owning a `WM x WN` sub-tile.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from llvmlite import ir

I64 = ir.IntType(64)


def c64(v: int) -> ir.Constant:
    return ir.Constant(I64, v)


@dataclass(frozen=True)
class Blocked:
    shape: tuple[int, ...]
    vec: int
    threads: int

    @property
    def n(self) -> int:
        return math.prod(self.shape) if self.shape else 1

    @property
    def groups(self) -> int:
        return -(-self.n // (self.threads * self.vec))

    @property
    def width(self) -> int:
        return self.vec

    @property
    def slots(self) -> int:
        return self.groups * self.vec

    @property
    def partial(self) -> bool:
        return self.n % (self.threads * self.vec) != 0

    def flat(self, b: ir.IRBuilder, tid: ir.Value, g: int) -> ir.Value:
        return b.mul(b.add(c64(g * self.threads), tid), c64(self.vec))

    def coords(self, b: ir.IRBuilder, tid: ir.Value, g: int) -> list[ir.Value]:
        f = self.flat(b, tid, g)
        if self.partial:  # idle threads read element 0 (their results are masked), never past the tile
            f = b.select(b.icmp_unsigned("<", f, c64(self.n)), f, c64(0))
        out: list[ir.Value] = []
        for axis in range(len(self.shape) - 1, -1, -1):
            extent = self.shape[axis]
            out.append(b.urem(f, c64(extent)) if axis > 0 else f)
            f = b.udiv(f, c64(extent))
        return list(reversed(out)) if self.shape else []

    def active(self, b: ir.IRBuilder, tid: ir.Value, g: int) -> ir.Value | None:
        if not self.partial:
            return None
        return b.icmp_unsigned("<", self.flat(b, tid, g), c64(self.n))


def blocked_for(shape: tuple[int, ...], threads: int, max_vec: int = 4) -> Blocked:
    last = shape[-1] if shape else 1
    vec = max_vec
    while vec > 1 and last % vec:
        vec //= 2
    return Blocked(tuple(shape), vec, threads)


@dataclass(frozen=True)
class Mma:
    shape: tuple[int, int]
    warps_m: int
    warps_n: int

    @property
    def wm(self) -> int:
        return self.shape[0] // self.warps_m

    @property
    def wn(self) -> int:
        return self.shape[1] // self.warps_n

    @property
    def mi(self) -> int:
        return self.wm // 16

    @property
    def ni(self) -> int:
        return self.wn // 8

    @property
    def groups(self) -> int:
        return self.mi * self.ni * 2

    @property
    def width(self) -> int:
        return 2

    @property
    def slots(self) -> int:
        return self.groups * 2

    @property
    def partial(self) -> bool:
        return False

    def coords(self, b: ir.IRBuilder, tid: ir.Value, g: int) -> list[ir.Value]:
        mi, rest = divmod(g, self.ni * 2)
        ni, h = divmod(rest, 2)
        warp = b.udiv(tid, c64(32))
        lane = b.urem(tid, c64(32))
        wm = b.udiv(warp, c64(self.warps_n))
        wn = b.urem(warp, c64(self.warps_n))
        row = b.add(b.mul(wm, c64(self.wm)), b.add(c64(mi * 16 + 8 * h), b.udiv(lane, c64(4))))
        col = b.add(b.mul(wn, c64(self.wn)), b.add(c64(ni * 8), b.mul(b.urem(lane, c64(4)), c64(2))))
        return [row, col]

    def active(self, b: ir.IRBuilder, tid: ir.Value, g: int) -> ir.Value | None:
        return None


@dataclass(frozen=True)
class MmaRows:
    """A `(rows, 1)` tile of per-row values beside an `Mma(shape, warps, 1)` tile (`codegen.tile.rowreduce`):
    each thread holds the rows its accumulator slots cover (`16 * mi + 8 * h + lane / 4` of its warp's band),
    one slot per group; the four lanes of a quad hold the same row.  Row reductions of the Mma tile land
    here by quad shuffles and broadcast back into it without shared memory."""

    rows: int
    warps: int

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, 1)

    @property
    def groups(self) -> int:
        return self.rows // self.warps // 16 * 2

    @property
    def width(self) -> int:
        return 1

    @property
    def slots(self) -> int:
        return self.groups

    @property
    def partial(self) -> bool:
        return False

    def coords(self, b: ir.IRBuilder, tid: ir.Value, g: int) -> list[ir.Value]:
        mi, h = divmod(g, 2)
        warp = b.udiv(tid, c64(32))
        lane = b.urem(tid, c64(32))
        band = b.mul(warp, c64(self.rows // self.warps))
        return [b.add(band, b.add(c64(mi * 16 + 8 * h), b.udiv(lane, c64(4)))), c64(0)]

    def active(self, b: ir.IRBuilder, tid: ir.Value, g: int) -> ir.Value | None:
        return None


Layout = Blocked | Mma | MmaRows


def mma_for(shape: tuple[int, int], warps: int) -> Mma | None:
    """Split `warps` over the (BM, BN) accumulator so each warp tile is a multiple of 16 x 16."""
    bm, bn = shape
    best: Mma | None = None
    wm_count = 1
    while wm_count <= warps:
        wn_count = warps // wm_count
        if wm_count * wn_count == warps and bm % (16 * wm_count) == 0 and bn % (16 * wn_count) == 0:
            cand = Mma(shape, wm_count, wn_count)
            if best is None or abs(cand.wm - cand.wn) < abs(best.wm - best.wn):
                best = cand
        wm_count *= 2
    return best
