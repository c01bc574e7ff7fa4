# fresh-expect: E0382 at line 44
# fresh-note: a GC-content scan chains a windowed fraction launch into a flagging launch with .then(lambda v: ...), but the lambda passes the captured callable-mask tensor that the first launch already moved instead of the handle in v.
"""GC-content scan of a DNA sequence in fixed windows, flagging windows whose GC fraction is unusual.

Bases are coded A=0, C=1, G=2, T=3; a callable mask marks bases that were sequenced confidently.  The first
tile kernel computes each window's GC fraction over its callable bases; the second turns the fractions into
z-scores, zeroing windows with too little callable sequence.  Both run as one lazy chain.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

WINDOW = 200
GENOME_GC = 0.41
GC_SPREAD = 0.05


@tile.kernel
def gc_fraction(frac: Partition[f32], bases: Tensor[i32], mask: Tensor[f32]) -> None:
    b = bases.load((tile.bid(0),), (WINDOW,))
    m = mask.load((tile.bid(0),), (WINDOW,))
    gc = ((b == 1) | (b == 2)).astype(f32) * m
    frac.store(tile.reshape(tile.sum(gc) / tile.maximum(tile.sum(m), 1.0), (1,)))


@tile.kernel
def flag_windows(z: Partition[f32], frac: Tensor[f32], mask: Tensor[f32], mean: f32, spread: f32) -> None:
    callable_bases = tile.sum(mask.load((tile.bid(0),), (WINDOW,)))
    score = (frac.load((tile.bid(0),), (1,)) - mean) / spread
    z.store(tile.where(callable_bases > WINDOW / 2, score, 0.0))


def gc_profile(bases: np.ndarray, callable_mask: np.ndarray):
    windows = -(-bases.size // WINDOW)
    mask = tile.from_numpy(callable_mask)
    first = gc_fraction(tile.zeros((windows,), f32).partition((1,)), tile.from_numpy(bases), mask)
    return first.then(
        lambda v: flag_windows(tile.zeros((windows,), f32).partition((1,)), v[0].unpartition(), mask, GENOME_GC, GC_SPREAD)
    )


def synthetic_genome(length: int, seed: int = 19) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    gc_rich = np.zeros(length, bool)
    gc_rich[3_000:3_600] = True
    p_gc = np.where(gc_rich, 0.65, GENOME_GC)
    is_gc = rng.random(length) < p_gc
    bases = np.where(is_gc, rng.integers(1, 3, length), rng.choice([0, 3], length)).astype(np.int32)
    callable_mask = (rng.random(length) > 0.03).astype(np.float32)
    callable_mask[7_000:7_400] = 0.0
    return bases, callable_mask


def main() -> None:
    stream = sk.Device.default().new_stream()
    bases, callable_mask = synthetic_genome(10_000)
    z, frac, _mask, *_ = gc_profile(bases, callable_mask).sync_on(stream)
    scores = z.unpartition().to_numpy(stream)
    fractions = frac.to_numpy(stream)
    hot = np.flatnonzero(scores > 3.0)
    masked = np.flatnonzero(scores == 0.0)
    print(f"{bases.size} bases in {scores.size} windows; mean GC {fractions.mean():.3f}")
    print(f"GC-rich windows: {(hot * WINDOW).tolist()}; low-coverage windows: {(masked * WINDOW).tolist()}")


if __name__ == "__main__":
    main()
