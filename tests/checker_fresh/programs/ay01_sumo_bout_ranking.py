# fresh-expect: E0502 at line 108
# fresh-known-false-alarm: cli,mypy false E0499 at 93: views of one buffer over the fields of a module table of records (div.lo, div.hi) in a loop are one region per loop site; only a counting loop's counter moves a view per iteration
# fresh-note: Sumo division ratings are scored by launch_async ops kept in a heap, but the drain loop breaks after three broadcast slots, so the commit launch reads `deltas` (and writes `ratings`) while the sandanme op still writes a view of `deltas`.
"""Sumo banzuke rating refresh: score each division's bouts asynchronously, commit the deltas.
Each division's rikishi occupy a contiguous window of one ratings arena. Scoring ops are
queued in a priority heap (top divisions first) and drained before the commit launch adds
the deltas back into the arena.
"""
from __future__ import annotations

import heapq
import math
import itertools
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

K_FACTOR = 24.0
BROADCAST_SLOTS = 3
LN10 = 2.302585


@simt.kernel
@simt.launch_contract(block=32)
def score_bouts(ratings: Slice[f32], opponent: Slice[f32], won: Slice[f32], delta: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (d := delta.get_mut(idx)) is not None:
        gap = (opponent[i] - ratings[i]) / 400.0
        expected = 1.0 / (1.0 + math.exp(gap * LN10))
        d.set(k * (won[i] - expected))


@simt.kernel
@simt.launch_contract(block=32)
def commit(delta: Slice[f32], ratings: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := ratings.get_mut(idx)) is not None:
        r.set(r.get() + delta[i])


@dataclass(frozen=True)
class Division:
    name: str
    rank: int
    lo: int
    hi: int


DIVISIONS = (
    Division("makuuchi", 0, 0, 32),
    Division("juryo", 1, 32, 64),
    Division("makushita", 2, 64, 96),
    Division("sandanme", 3, 96, 128),
)


def simulate_basho(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    opponents = rng.normal(1500.0, 120.0, n).astype(np.float32)
    won = (rng.random(n) < 0.5).astype(np.float32)
    return opponents, won


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(7)
    total = DIVISIONS[-1].hi

    ratings = sk.to_device(rng.normal(1500.0, 80.0, total).astype(np.float32), stream)
    deltas = sk.zeros(total, f32, stream)
    opp_host, won_host = simulate_basho(rng, total)
    opponents = sk.to_device(opp_host, stream)
    won = sk.to_device(won_host, stream)

    prepared = score_bouts.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    commit_prep = commit.prepare(simt.LaunchConfig1D.for_len(total, block=32), dev)

    heap: list[tuple[int, int, str, sk.DeviceOp]] = []
    seq = itertools.count()
    for div in DIVISIONS:
        op = score_bouts.launch_async(
            prepared,
            ratings.view(div.lo, div.hi),
            opponents.view(div.lo, div.hi),
            won.view(div.lo, div.hi),
            deltas.view(div.lo, div.hi),
            K_FACTOR,
        )
        heapq.heappush(heap, (div.rank, next(seq), div.name, op))

    announced: list[str] = []
    while heap:
        rank, _, name, op = heapq.heappop(heap)
        op.sync_on(stream)
        announced.append(name)
        if len(announced) >= BROADCAST_SLOTS:
            # the NHK segment only has room for the top divisions
            break
    print("announced:", ", ".join(announced))

    commit.launch(commit_prep, stream, deltas, ratings)

    final = ratings.to_numpy(stream)
    for div in DIVISIONS:
        window = final[div.lo : div.hi]
        print(f"{div.name:>10}: mean {window.mean():7.1f}  top {window.max():7.1f}")


if __name__ == "__main__":
    main()
