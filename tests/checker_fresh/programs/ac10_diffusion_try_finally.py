# fresh-expect: E0505 at line 56
# fresh-known-false-alarm: cli,mypy false E0382 at 52 and false E0382 at 60: after the E0505 at 56 moves `field`, the swapped loop would use the moved buffer again; the runtime stops at 56
"""1-D heat diffusion with periodic energy reports.

Each step is launched asynchronously; the `finally` clause guarantees the in-flight step is
synchronized even when a report fails, so the ping-pong buffers are never left borrowed.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

CELLS = 512
TILE = 128
REPORT_EVERY = 4


@simt.kernel
@simt.launch_contract(block=128, requires=("len(cur) >= n", "len(nxt) >= n"))
def diffuse(cur: Slice[f32], nxt: DisjointSlice[f32], alpha: f32, n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (o := nxt.get_mut(idx)) is not None:
        lo = cur[i - 1] if i > 0 else cur[i]
        hi = cur[i + 1] if i + 1 < n else cur[i]
        o.set(cur[i] + alpha * (lo - 2.0 * cur[i] + hi))


@tile.kernel
def squared(z: Partition[f32], f: Tensor[f32]) -> None:
    t = tile.load_like(f, z)
    z.store(t * t)


def simulate(steps: int, alpha: float = 0.2) -> list[tuple[int, float]]:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prepared = diffuse.prepare(simt.LaunchConfig1D.for_len(CELLS, block=128), dev)
    init = np.zeros(CELLS, np.float32)
    init[CELLS // 3 : CELLS // 3 + 8] = 10.0
    field = sk.to_device(init, stream)
    nxt = sk.zeros(CELLS, f32, stream)
    reports = []
    step = 0
    while step < steps:
        pending = diffuse.launch_async(prepared, field, nxt, alpha, CELLS)
        try:
            if step % REPORT_EVERY == 0:
                sq = tile.zeros((CELLS,), f32).sync_on(stream).partition((TILE,))
                sq, _ = squared(sq, field).sync_on(stream)
                reports.append((step, float(sq.unpartition().to_numpy(stream).sum())))
        finally:
            pending.sync_on(stream)
        field, nxt = nxt, field
        step += 1
    return reports


def main() -> None:
    for step, energy in simulate(12):
        print(f"step {step:3d}: energy {energy:.3f}")


if __name__ == "__main__":
    main()
