# fresh-expect: E0382 at line 59
# fresh-note: Contact maps over an NMR ensemble that accumulate per-residue contact counts in an AtomicTensor kept in a dict, but the loop rebinds only a local name from sync_on, so the second model launches the stale dict entry.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

L = 48
B = 16
CUTOFF = 8.0


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
    cols = tile.reshape(tile.iota(B, i32) + bj * B, (1, B))
    contact = (d2 < cutoff2) & (column(rows) != cols)
    cmap.store(tile.where(contact, 1.0, 0.0))
    tile.atomic_add(counts, rows, tile.sum(contact.astype(i32), axis=1))


def helix_ensemble(rng: np.random.Generator, models: int) -> list[np.ndarray]:
    k = np.arange(L)
    out = []
    for m in range(models):
        bend = 0.02 * m
        ca = np.stack([2.3 * np.cos(k * 1.745), 2.3 * np.sin(k * 1.745), 1.5 * k * (1.0 - bend)])
        ca[2] = np.where(k > L // 2, ca[2] - bend * 40 * np.sin((k - L // 2) / 6.0), ca[2])
        out.append((ca + rng.normal(0.0, 0.3, ca.shape)).astype(np.float32))
    return out


class EnsembleContacts:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.totals = {"contacts": tile.zeros((L,), i32)}
        self.freq = np.zeros((L, L), np.float32)
        self.models = 0

    def add_models(self, ensemble: list[np.ndarray]) -> None:
        for ca in ensemble:
            blank = tile.zeros((L, L), f32).partition((B, B))
            op = contact_map(blank, self.totals["contacts"], tile.from_numpy(ca), CUTOFF * CUTOFF)
            cmap, counts, _ca, _c = op.sync_on(self.stream)
            self.freq += cmap.unpartition().to_numpy(self.stream)
            self.models += 1

    def summary(self) -> tuple[np.ndarray, np.ndarray]:
        counts = self.totals["contacts"].to_numpy(self.stream)
        return self.freq / max(self.models, 1), counts / max(self.models, 1)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    ensemble = helix_ensemble(np.random.default_rng(0), 4)
    contacts = EnsembleContacts(stream)
    contacts.add_models(ensemble)
    freq, per_residue = contacts.summary()
    stable = int((freq > 0.99).sum() // 2)
    print(f"{stable} contacts present in every model; busiest residue {int(per_residue.argmax())}")


if __name__ == "__main__":
    main()
