# fresh-expect: E0505 at line 78
# fresh-note: Per-shaft mine airflow launch_async ops live in a dict; the drain loop skips (continue) the sealed shaft, so its op still borrows a view of `flow` when `flow.partition` moves it into the tile fan-blend kernel.
"""Opal mine (Coober Pedy style) ventilation: airflow per shaft, then a smoothed network map.

Each shaft's Hardy-Cross style flow correction is launched asynchronously and kept in a dict
keyed by shaft. The drain loop skips shafts sealed for blasting; afterwards the whole flow
arena goes to a tile kernel that blends it with the fan curve.
"""
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SEGMENTS = 32
SHAFTS = ("north_drive", "east_drive", "old_workings", "decline")
SEALED_FOR_BLASTING = {"old_workings"}


@simt.kernel
@simt.launch_contract(block=32)
def correct_flow(pressure: Slice[f32], resistance: Slice[f32], flow: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (q := flow.get_mut(idx)) is not None:
        r = max(resistance[i], 1e-3)
        q.set(math.sqrt(abs(pressure[i]) / r) * (1.0 if pressure[i] >= 0.0 else -1.0))


@tile.kernel
def blend_fan(network: Partition[f32], fan_curve: Tensor[f32], weight: f32) -> None:
    q = network.load()
    fan = tile.load_like(fan_curve, network)
    network.store(q * (1.0 - weight) + fan * weight)


def survey(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n = SEGMENTS * len(SHAFTS)
    pressure = rng.normal(120.0, 35.0, n).astype(np.float32)
    resistance = rng.uniform(0.4, 2.2, n).astype(np.float32)
    return pressure, resistance


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1915)

    p_host, r_host = survey(rng)
    pressure = sk.to_device(p_host, stream)
    resistance = sk.to_device(r_host, stream)
    flow = sk.zeros(len(p_host), f32, stream)
    prepared = correct_flow.prepare(simt.LaunchConfig1D.for_len(SEGMENTS, block=32), dev)

    inflight: dict[str, sk.DeviceOp] = {}
    for k, shaft in enumerate(SHAFTS):
        lo, hi = k * SEGMENTS, (k + 1) * SEGMENTS
        inflight[shaft] = correct_flow.launch_async(
            prepared, pressure.view(lo, hi), resistance.view(lo, hi), flow.view(lo, hi)
        )

    finished = []
    for shaft, op in list(inflight.items()):
        if shaft in SEALED_FOR_BLASTING:
            continue
        op.sync_on(stream)
        del inflight[shaft]
        finished.append(shaft)
    print("flows ready for:", ", ".join(finished))

    fan = tile.from_numpy(np.linspace(8.0, 14.0, len(p_host), dtype=np.float32))
    network = flow.partition((SEGMENTS,))
    network, _fan, _w = blend_fan(network, fan, 0.25).sync_on(stream)

    for shaft, op in inflight.items():
        op.sync_on(stream)
    merged = network.unpartition().to_numpy(stream).reshape(len(SHAFTS), SEGMENTS)
    for shaft, row in zip(SHAFTS, merged):
        print(f"{shaft:>13}: mean {row.mean():6.2f} m^3/s, min {row.min():6.2f}")


if __name__ == "__main__":
    main()
