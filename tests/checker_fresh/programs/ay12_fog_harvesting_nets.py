# fresh-expect: clean
# fresh-note: Fog-net collection launch_async ops on views of one yield buffer are drained with `while pending: pending.pop(0).sync_on(...)` before the buffer is partitioned for the tile gutter-loss kernel and lent back to SIMT via as_buffer.
"""Fog harvesting on a coastal ridge: water yield of each mesh net from fog liquid content.

Per-net collection runs as async SIMT launches into views of one yield buffer; the pending ops
are drained from a list before the buffer moves into a tile kernel that applies the gutter
losses, and the result is lent back to SIMT through as_buffer for the daily totals.
"""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

NETS = 4
HOURS = 64  # hourly samples per net
EFFICIENCY = 0.22


@simt.kernel
@simt.launch_contract(block=64)
def collect(lwc: Slice[f32], wind: Slice[f32], litres: DisjointSlice[f32], area: f32, eff: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := litres.get_mut(idx)) is not None:
        o.set(lwc[i] * wind[i] * area * eff * 3.6)


@tile.kernel
def gutter_loss(litres: Partition[f32], leak: Tensor[f32]) -> None:
    q = litres.load()
    lost = tile.load_like(leak, litres)
    litres.store(tile.maximum(q - lost, 0.0))


@simt.kernel
@simt.launch_contract(block=64)
def scale_copy(src: Slice[f32], dst: DisjointSlice[f32], factor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * factor)


def fog_series(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    hours = np.arange(NETS * HOURS) % HOURS
    lwc = np.clip(0.25 + 0.2 * np.cos(2 * np.pi * hours / 24.0) + rng.normal(0, 0.05, hours.size), 0, None)
    wind = rng.uniform(2.0, 7.0, hours.size)
    return lwc.astype(np.float32), wind.astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(37)

    lwc_host, wind_host = fog_series(rng)
    lwc = sk.to_device(lwc_host, stream)
    wind = sk.to_device(wind_host, stream)
    yields = sk.zeros(NETS * HOURS, f32, stream)
    areas = (40.0, 40.0, 24.0, 60.0)
    prepared = collect.prepare(simt.LaunchConfig1D.for_len(HOURS, block=64), dev)

    pending: list[sk.DeviceOp] = []
    for net, area in enumerate(areas):
        lo, hi = net * HOURS, (net + 1) * HOURS
        pending.append(collect.launch_async(prepared, lwc.view(lo, hi), wind.view(lo, hi), yields.view(lo, hi), area, EFFICIENCY))

    print(f"{len(pending)} nets queued")
    while pending:
        pending.pop(0).sync_on(stream)

    leak = tile.from_numpy(np.full(NETS * HOURS, 0.05, np.float32))
    parts = yields.partition((HOURS,))
    parts, _leak = gutter_loss(parts, leak).sync_on(stream)
    collected = parts.unpartition()

    tanks = sk.zeros(NETS * HOURS, f32, stream)
    copy_prep = scale_copy.prepare(simt.LaunchConfig1D.for_len(NETS * HOURS, block=64), dev)
    scale_copy.launch(copy_prep, stream, sk.as_buffer(collected), tanks, 0.97)

    per_net = tanks.to_numpy(stream).reshape(NETS, HOURS).sum(axis=1)
    for net, litres in enumerate(per_net):
        print(f"net {net}: {litres:8.1f} L over {HOURS} h ({litres / areas[net]:.2f} L/m^2)")


if __name__ == "__main__":
    main()
