# fresh-expect: clean
# fresh-note: Fraction-of-native-contacts (Q) scoring over a folding trajectory that threads the per-residue AtomicTensor counts back into the object after every sync and shares the native map across all scoring launches.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

L = 64
B = 16


@tile.function
def column(t):
    return tile.reshape(t, (B, 1))


@tile.kernel
def contact_map(cmap: Partition[f32], counts: AtomicTensor[i32], ca: Tensor[f32], cutoff2: f32) -> None:
    bi = tile.bid(0)
    bj = tile.bid(1)
    d2 = tile.zeros((B, B), f32)
    for axis in range(3):
        ri = column(ca.load((axis, bi), (1, B)))
        rj = ca.load((axis, bj), (1, B))
        d2 = d2 + (ri - rj) * (ri - rj)
    rows = tile.iota(B, i32) + bi * B
    far = tile.reshape(tile.iota(B, i32) + bj * B, (1, B)) - column(rows)
    contact = (d2 < cutoff2) & ((far > 2) | (far < -2))
    cmap.store(tile.where(contact, 1.0, 0.0))
    tile.atomic_add(counts, rows, tile.sum(contact.astype(i32), axis=1))


@tile.kernel
def shared_contacts(per_row: Partition[f32], native: Tensor[f32], model: Tensor[f32]) -> None:
    b = tile.bid(0)
    n = native.load((b, 0), (B, L))
    m = model.load((b, 0), (B, L))
    per_row.store(tile.sum(n * m, axis=1))


def fold_path(rng: np.random.Generator, frames: int) -> list[np.ndarray]:
    k = np.arange(L)
    hairpin = np.stack([np.where(k < L // 2, k, L - k) * 3.8, np.where(k < L // 2, 0.0, 5.0), np.zeros(L)])
    extended = np.stack([k * 3.8, np.zeros(L), np.zeros(L)])
    return [((1 - s) * extended + s * hairpin + rng.normal(0, 0.4, (3, L))).astype(np.float32)
            for s in np.linspace(0.0, 1.0, frames)]


class QScorer:
    def __init__(self, stream: sk.Stream, native_ca: np.ndarray, cutoff: float = 7.5) -> None:
        self.stream, self.cutoff2 = stream, cutoff * cutoff
        self.counts = tile.zeros((L,), i32)
        native_map = self._map(native_ca)
        self.native_total = float(native_map.to_numpy(stream).sum())
        self.native = tile.from_numpy(native_map.to_numpy(stream)).shared()

    def _map(self, ca: np.ndarray) -> tile.Tensor:
        blank = tile.zeros((L, L), f32).partition((B, B))
        cmap, self.counts, _ca, _c = contact_map(blank, self.counts, tile.from_numpy(ca), self.cutoff2).sync_on(self.stream)
        return cmap.unpartition()

    def score(self, ca: np.ndarray) -> float:
        model = self._map(ca)
        rows = tile.zeros((L,), f32).partition((B,))
        rows, _native, _model = shared_contacts(rows, self.native, model).sync_on(self.stream)
        return float(rows.to_numpy(self.stream).sum()) / self.native_total


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    path = fold_path(np.random.default_rng(1), 5)
    scorer = QScorer(stream, path[-1])
    q = [round(scorer.score(ca), 3) for ca in path]
    per_residue = scorer.counts.to_numpy(stream)
    print(f"Q along the folding path: {q}; most contacted residue {int(per_residue.argmax())}")


if __name__ == "__main__":
    main()
