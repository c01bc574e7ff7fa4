# fresh-expect: E0382 at line 29
"""1-D heat equation with explicit time stepping on the tile track, with an energy readout every few steps."""

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


def simulate(u0: np.ndarray, steps: int, report_every: int, stream) -> list[float]:
    n = u0.size
    u = tile.from_numpy(u0.astype(np.float32)).sync_on(stream)
    energies = []
    for t in range(steps):
        nxt = tile.zeros((n,), f32).partition((TILE,))
        nxt, _ = relax(nxt, u).sync_on(stream)  # the old field is handed back under `_`
        if t % report_every == 0:
            energies.append(float((u.to_numpy(stream) ** 2).sum()))
        u = nxt.unpartition()
    return energies


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print(simulate(np.sin(np.linspace(0, np.pi, 512)), 6, 2, dev.new_stream()))
