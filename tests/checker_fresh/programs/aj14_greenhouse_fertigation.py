# fresh-expect: clean
# fresh-note: Greenhouse fertigation loop with a soil water-balance kernel (ping-pong through a dict of buffers) and a contract-less shared-memory bench-average kernel, launched from a nested helper that carries its own `with simt.unsafe():` around `launch_unchecked`.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ZONE = 128  # cells per irrigation zone = threads per block of the zone kernel


@simt.kernel
@simt.launch_contract(block=128)
def water_balance(moisture: Slice[f32], irrigation: Slice[f32], crop_coef: Slice[f32],
                  out: DisjointSlice[f32], rain: f32, et0: f32, capacity: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        zone = i // ZONE
        m = moisture[i] + rain + irrigation[zone] - et0 * crop_coef[i]
        drained = max(m - capacity, f32(0.0)) * f32(0.6)
        o.set(min(max(m - drained, f32(0.0)), capacity))


@simt.kernel
def zone_mean(moisture: Slice[f32], means: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    b = thread.block_idx_x()
    i = b * ZONE + t
    with simt.unsafe():
        scratch = simt.shared_array(f32, ZONE)
        scratch[t] = moisture[i] if i < len(moisture) else f32(0.0)
    thread.sync_threads()
    stride = ZONE // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                scratch[t] = scratch[t] + scratch[t + stride]
        thread.sync_threads()
        stride = stride // 2
    if t == 0 and b < len(means):
        with simt.unsafe():
            means.get_unchecked_mut(b).set(scratch[0] / f32(ZONE))


def run_greenhouse(benches: int, days: int, dev: sk.Device) -> list[np.ndarray]:
    stream = dev.new_stream()
    cells = benches * ZONE
    rng = np.random.default_rng(8)
    state = {
        "moisture": sk.to_device(rng.uniform(0.18, 0.32, cells).astype(np.float32), stream),
        "spare": sk.zeros(cells, f32, stream),
    }
    crop = sk.to_device(np.tile(np.linspace(0.7, 1.1, ZONE), benches).astype(np.float32), stream)
    irrigation = sk.zeros(benches, f32, stream)
    means = sk.zeros(benches, f32, stream)
    balance = water_balance.prepare(simt.LaunchConfig1D.for_len(cells, block=128), dev)
    zone_cfg = simt.LaunchConfig1D(benches, ZONE)

    def bench_means() -> np.ndarray:
        with simt.unsafe():   # every block is exactly one bench of ZONE threads
            zone_mean.launch_unchecked(zone_cfg, stream, state["moisture"], means)
        return means.to_numpy(stream)

    history = []
    try:
        for d in range(days):
            water_balance.launch(balance, stream, state["moisture"], irrigation, crop, state["spare"],
                                 0.0, 0.015, 0.34)
            state["moisture"], state["spare"] = state["spare"], state["moisture"]
            current = bench_means()
            dose = np.clip(0.22 - current, 0.0, 0.04).astype(np.float32)
            irrigation.copy_from_numpy(dose, stream)
            history.append(current)
    finally:
        print(f"greenhouse ran {len(history)} of {days} days")
    return history


if __name__ == "__main__":
    hist = run_greenhouse(benches=5, days=4, dev=sk.Device.cpu())
    print("final bench moisture:", np.round(hist[-1], 4).tolist())
