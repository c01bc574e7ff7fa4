# fresh-expect: E0382 at line 24
"""Wave equation stepper: the new field is partitioned for the update kernel, and a boundary probe reads it."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256
TILE = 64
C2 = 0.25


@tile.kernel
def leapfrog(nxt: Partition[f32], cur: Tensor[f32], prev: Tensor[f32]) -> None:
    c = tile.load_like(cur, nxt)
    p = tile.load_like(prev, nxt)
    nxt.store(2.0 * c - p + C2 * c)


def probe(field, stream) -> float:
    return float(field.to_numpy(stream)[0])


def step(cur, prev, stream):
    nxt = tile.zeros((N,), f32).sync_on(stream)
    parts = nxt.partition((TILE,))
    boundary = probe(nxt, stream)  # sanity check that the new field starts at zero
    parts, cur, prev = leapfrog(parts, cur, prev).sync_on(stream)
    assert boundary == 0.0
    return parts.unpartition(), cur


if __name__ == "__main__":
    dev = sk.Device.cpu()
    s = dev.new_stream()
    prev = tile.from_numpy(np.zeros(N, dtype=np.float32)).sync_on(s)
    cur = tile.from_numpy(np.sin(np.linspace(0, 3, N)).astype(np.float32)).sync_on(s)
    for _ in range(3):
        cur, prev = step(cur, prev, s)
    print(cur.to_numpy(s)[:4])
