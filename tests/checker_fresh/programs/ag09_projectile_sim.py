# fresh-expect: clean
# projectile simulation with drag: phase kernels and their prepared launches built from one registry dict
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SHOTS = 1500
DRAG = 0.05
GRAVITY = -9.81


@simt.kernel
@simt.launch_contract(block=256)
def drag_and_gravity(h: Slice[f32], v: Slice[f32], v_out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := v_out.get_mut(idx)) is not None:
        vi = v[i]
        o.set(vi + (GRAVITY - DRAG * vi * abs(vi)) * dt)


@simt.kernel
@simt.launch_contract(block=128)
def advance(h: Slice[f32], v: Slice[f32], h_out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := h_out.get_mut(idx)) is not None:
        o.set(max(h[i] + v[i] * dt, 0.0))


PHASES = {"forces": drag_and_gravity, "advance": advance}


class Battery:
    def __init__(self, dev: sk.Device, stream: sk.Stream, muzzle_speed: np.ndarray) -> None:
        self.stream = stream
        n = len(muzzle_speed)
        self.h = sk.zeros(n, f32, stream)
        self.v = sk.to_device(muzzle_speed, stream)
        self.scratch = sk.zeros(n, f32, stream)
        self.launches = {
            name: k.prepare(simt.LaunchConfig1D.for_len(n, block=k.contract.block[0]), dev)
            for name, k in PHASES.items()
        }

    def phase(self, name: str, dt: float) -> None:
        PHASES[name].launch(self.launches[name], self.stream, self.h, self.v, self.scratch, dt)
        if name == "forces":
            self.v, self.scratch = self.scratch, self.v
        else:
            self.h, self.scratch = self.scratch, self.h

    def tick(self, dt: float) -> None:
        for name in PHASES:
            self.phase(name, dt)

    def airborne(self) -> int:
        return int((self.h.to_numpy(self.stream) > 0.0).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    battery = Battery(dev, stream, rng.uniform(5.0, 40.0, SHOTS).astype(np.float32))
    dt = 0.05
    apex = np.zeros(SHOTS, np.float32)
    for step in range(120):
        battery.tick(dt)
        apex = np.maximum(apex, battery.h.to_numpy(stream))
        if battery.airborne() == 0:
            print(f"all shots landed after {(step + 1) * dt:.2f} s")
            break
    print(f"highest apex {apex.max():.1f} m, median apex {np.median(apex):.1f} m")


if __name__ == "__main__":
    main()
