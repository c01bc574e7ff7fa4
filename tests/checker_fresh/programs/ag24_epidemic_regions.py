# fresh-expect: clean
# multi-region SIR epidemic: one read-only contact matrix shared by every daily infection-pressure tile launch
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

REGIONS = 64
ROWS = 16


@tile.kernel
def pressure(force: Partition[f32], contact: Tensor[f32], infected: Tensor[f32]) -> None:
    rows = contact.load((tile.bid(0), 0), (ROWS, REGIONS))
    inf = tile.reshape(infected.load((0,), (REGIONS,)), (1, REGIONS))
    force.store(tile.sum(rows * inf, axis=1))


@tile.kernel
def row_totals(totals: Partition[f32], contact: Tensor[f32]) -> None:
    totals.store(tile.sum(contact.load((tile.bid(0), 0), (ROWS, REGIONS)), axis=1))


@dataclass
class Epidemic:
    s: np.ndarray
    i: np.ndarray
    r: np.ndarray
    peaks: list[float] = field(default_factory=list)

    def step(self, force: np.ndarray, beta: float, gamma: float) -> None:
        new_inf = np.minimum(beta * self.s * force, self.s)
        recovered = gamma * self.i
        self.s = self.s - new_inf
        self.i = self.i + new_inf - recovered
        self.r = self.r + recovered
        self.peaks.append(float(self.i.sum()))


def gravity_contacts(rng: np.random.Generator) -> np.ndarray:
    pos = rng.uniform(0, 100, (REGIONS, 2))
    dist = np.linalg.norm(pos[:, None] - pos[None, :], axis=-1) + 5.0
    c = 1.0 / dist**2
    return (c / c.sum(axis=1, keepdims=True)).astype(np.float32)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(1)
    contact = tile.from_numpy(gravity_contacts(rng)).shared()

    totals, _ = row_totals(tile.zeros((REGIONS,), f32).partition((ROWS,)), contact).sync_on(stream)
    assert np.allclose(totals.to_numpy(stream), 1.0, atol=1e-5)

    seed = np.zeros(REGIONS, np.float32)
    seed[rng.integers(0, REGIONS)] = 0.01
    epi = Epidemic(s=1.0 - seed, i=seed, r=np.zeros(REGIONS, np.float32))
    for day in range(120):
        force, _, _ = pressure(
            tile.zeros((REGIONS,), f32).partition((ROWS,)), contact, tile.from_numpy(epi.i.astype(np.float32))
        ).sync_on(stream)
        epi.step(force.to_numpy(stream), beta=0.35, gamma=0.1)
        if epi.i.sum() < 1e-5:
            break
    peak_day = int(np.argmax(epi.peaks))
    print(f"peak prevalence {max(epi.peaks) / REGIONS:.3%} on day {peak_day}, "
          f"final attack rate {epi.r.mean():.1%} after {len(epi.peaks)} days")


if __name__ == "__main__":
    main()
