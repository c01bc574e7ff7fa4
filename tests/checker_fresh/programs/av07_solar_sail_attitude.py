# fresh-expect: clean
# fresh-note: Solar-sail attitude step that computes per-panel radiation torque with an async SIMT launch kept pending inside a @contextmanager (synced in its finally), and only after the with block hands the torque buffer to a tile kernel that integrates the spin rate.
"""Solar radiation pressure torque on a segmented sail, then a tile integration step."""
from __future__ import annotations

import math
from contextlib import contextmanager
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

PANELS = 2048
TILE = 256
P_SRP = 4.56e-6  # N/m^2 at 1 AU


@simt.kernel
@simt.launch_contract(block=128)
def srp_torque(area: Slice[f32], angle: Slice[f32], arm: Slice[f32], torque: DisjointSlice[f32], p: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (t := torque.get_mut(idx)) is not None:
        c = math.cos(angle[i])
        t.set(p * area[i] * c * c * arm[i])


@tile.kernel
def integrate_spin(rate: Partition[f32], torque: Tensor[f32], inertia: Tensor[f32], dt: f32) -> None:
    w = rate.load()
    tq = tile.load_like(torque, rate)
    j = tile.load_like(inertia, rate)
    rate.store(w + tq / j * dt)


@contextmanager
def torque_in_flight(prepared, stream: sk.Stream, area, angle, arm, torque) -> Iterator[sk.DeviceBuffer]:
    op = srp_torque.launch_async(prepared, area, angle, arm, torque, P_SRP)
    try:
        yield torque
    finally:
        op.sync_on(stream)


def sail_geometry(stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer, sk.DeviceBuffer]:
    rng = np.random.default_rng(11)
    area = sk.to_device(rng.uniform(0.9, 1.1, PANELS).astype(np.float32), stream)
    angle = sk.to_device(rng.uniform(-0.3, 0.3, PANELS).astype(np.float32), stream)
    arm = sk.to_device(np.linspace(-20.0, 20.0, PANELS, dtype=np.float32), stream)
    return area, angle, arm


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    area, angle, arm = sail_geometry(stream)
    torque = sk.zeros(PANELS, f32, stream)
    prepared = srp_torque.prepare(simt.LaunchConfig1D.for_len(PANELS, block=128), dev)

    with torque_in_flight(prepared, stream, area, angle, arm, torque):
        # host-side planning while the torque kernel runs: nothing here touches `torque`
        vane_cmd = np.clip(np.linspace(-1.0, 1.0, 8), -0.5, 0.5)
        print("vane command:", np.round(vane_cmd, 2))

    rate = tile.zeros((PANELS,), f32).partition((TILE,))
    inertia = tile.full((PANELS,), 350.0, f32)
    rate, torque, inertia, _dt = integrate_spin(rate, torque, inertia, 60.0).sync_on(stream)
    spin = rate.unpartition().to_numpy(stream)
    print(f"net spin-rate change {spin.sum():.3e} rad/s, area mean {area.to_numpy(stream).mean():.3f}")


if __name__ == "__main__":
    main()
