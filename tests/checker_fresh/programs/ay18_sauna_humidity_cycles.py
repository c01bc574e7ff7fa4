# fresh-expect: clean
# fresh-note: Sauna humidity ping-pongs two buffers; while the async step (reads cur, writes nxt) is pending the host reads only `cur`, and the op is synced before the swap.
"""Sauna climate: humidity through bench heights over repeated loyly (water-on-stones) cycles.

Two humidity levels ping-pong between time steps. The next step's launch is issued
asynchronously and, while it is pending, the host logs the level the op only reads; the op
is synced before the buffers swap roles.
"""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

HEIGHTS = 96  # vertical cells from floor to ceiling
STEPS = 16
LOYLY_EVERY = 5


@simt.kernel
@simt.launch_contract(block=32)
def humidity_step(cur: Slice[f32], nxt: DisjointSlice[f32], rise: f32, vent: f32, steam: f32, n: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (h := nxt.get_mut(idx)) is not None:
        below = cur[i - 1] if i > 0 else cur[i] + steam
        above = cur[i + 1] if i < n - 1 else cur[i]
        mixed = cur[i] + rise * (below - cur[i]) + 0.05 * (above - cur[i])
        h.set(mixed * (1.0 - vent))


def bench_report(step: int, level: np.ndarray) -> str:
    lower, upper = level[HEIGHTS // 4], level[3 * HEIGHTS // 4]
    return f"step {step:2d}: lower bench {lower:5.1f} g/m^3, upper bench {upper:5.1f} g/m^3"


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()

    cur = sk.to_device(np.full(HEIGHTS, 12.0, np.float32), stream)
    nxt = sk.zeros(HEIGHTS, f32, stream)
    prepared = humidity_step.prepare(simt.LaunchConfig1D.for_len(HEIGHTS, block=32), dev)

    log: list[str] = []
    peak = 0.0
    for step in range(STEPS):
        steam = 60.0 if step % LOYLY_EVERY == 0 else 0.0
        pending = humidity_step.launch_async(prepared, cur, nxt, 0.3, 0.01, steam, HEIGHTS)
        # the op only reads `cur`: logging it while the step is in flight is fine
        snapshot = cur.to_numpy(stream)
        log.append(bench_report(step, snapshot))
        peak = max(peak, float(snapshot.max()))
        pending.sync_on(stream)
        cur, nxt = nxt, cur

    for line in log[:: LOYLY_EVERY]:
        print(line)
    final = cur.to_numpy(stream)
    print(f"peak {peak:.1f} g/m^3; final ceiling {final[-1]:.1f}, floor {final[0]:.1f}")


if __name__ == "__main__":
    main()
