# fresh-expect: clean
"""1-D heat equation on the tile track; the energy readout uses the field handed back by `sync_on`."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 64
ALPHA = 0.1


@tile.kernel
def relax(nxt: Partition[f32], u: Tensor[f32]) -> None:
    cur = tile.load_like(u, nxt)
    nxt.store(cur * (1.0 - ALPHA) + ALPHA * 0.5 * cur)


def energy(field, stream) -> float:
    return float((field.to_numpy(stream) ** 2).sum())


def simulate(u0: np.ndarray, steps: int, report_every: int, stream) -> list[float]:
    n = u0.size
    u = tile.from_numpy(u0.astype(np.float32)).sync_on(stream)
    energies = []
    for t in range(steps):
        nxt = tile.zeros((n,), f32).partition((TILE,))
        nxt, u = relax(nxt, u).sync_on(stream)
        if t % report_every == 0:
            energies.append(energy(u, stream))
        u = nxt.unpartition()
    return energies


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print(simulate(np.sin(np.linspace(0, np.pi, 512)), 6, 2, dev.new_stream()))
