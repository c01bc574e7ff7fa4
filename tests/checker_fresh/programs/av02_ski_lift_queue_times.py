# fresh-expect: clean
# fresh-note: Ski-lift queue model that relaxes per-lift wait times through a dict of named buffers, stopping early on convergence; the dict entries are swapped after each sweep so input and output are always distinct buffers.
"""Queue relaxation for a ski area's lift network.

Every sweep moves each lift's expected wait towards the arrivals it sees from
its neighbours.  Waits live in a dict of named device buffers that ping-pong.
"""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N_LIFTS = 1536
for_len = simt.LaunchConfig1D.for_len  # module-level alias


@simt.kernel
@simt.launch_contract(block=256)
def relax_waits(waits: Slice[f32], arrivals: Slice[f32], out: DisjointSlice[f32], service: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(waits)
    left = waits[i - 1] if i > 0 else waits[i]
    right = waits[i + 1] if i + 1 < n else waits[i]
    if (o := out.get_mut(idx)) is not None:
        o.set(f32(0.5) * waits[i] + f32(0.25) * (left + right) + arrivals[i] / service)


def make_arrivals(stream: sk.Stream) -> sk.DeviceBuffer:
    rng = np.random.default_rng(7)
    return sk.to_device(rng.uniform(0.0, 4.0, N_LIFTS).astype(np.float32), stream)


def simulate(stream: sk.Stream, dev: sk.Device, max_sweeps: int = 12) -> tuple[int, float]:
    waits = {
        "cur": sk.to_device(np.full(N_LIFTS, 5.0, np.float32), stream),
        "next": sk.zeros(N_LIFTS, f32, stream),
    }
    arrivals = make_arrivals(stream)
    prepared = relax_waits.prepare(for_len(N_LIFTS, block=256), dev)
    last_mean = float("inf")
    sweep = 0
    for sweep in range(1, max_sweeps + 1):
        if sweep % 5 == 0:
            # a maintenance window: lifts paused, nothing changes this sweep
            continue
        relax_waits.launch(prepared, stream, waits["cur"], arrivals, waits["next"], 2.0)
        waits["cur"], waits["next"] = waits["next"], waits["cur"]
        mean = float(waits["cur"].to_numpy(stream).mean())
        if abs(mean - last_mean) < 1e-3:
            break
        last_mean = mean
    return sweep, last_mean


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    sweeps, mean = simulate(stream, dev)
    print(f"settled after {sweeps} sweeps, mean wait {mean:.2f} min")


if __name__ == "__main__":
    main()
