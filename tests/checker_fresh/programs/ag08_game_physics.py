# fresh-expect: E0308 at line 53
# fresh-known-miss: cli,mypy the kernel is chosen from a dict attribute (`self.kernels[name]`) and the prepared launch from `dict(zip(PHASE_NAMES, [...]))` over a module tuple in another order: kernels chosen from an attribute's dict are not followed
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PARTICLES = 2048
FLOOR = 0.0
GRAVITY = -9.81


@simt.kernel
@simt.launch_contract(block=256)
def apply_gravity(y: Slice[f32], vy: Slice[f32], vy_out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := vy_out.get_mut(idx)) is not None:
        o.set(vy[i] + GRAVITY * dt)


@simt.kernel
@simt.launch_contract(block=128)
def move(y: Slice[f32], vy: Slice[f32], y_out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y_out.get_mut(idx)) is not None:
        o.set(max(y[i] + vy[i] * dt, FLOOR))


PHASE_NAMES = ("gravity", "move")
PHASE_KERNELS = (move, apply_gravity)  # position update first: it dominates the frame time


class ParticleWorld:
    def __init__(self, dev: sk.Device, stream: sk.Stream, heights: np.ndarray) -> None:
        self.stream = stream
        n = len(heights)
        self.y = sk.to_device(heights, stream)
        self.vy = sk.zeros(n, f32, stream)
        self.scratch = sk.zeros(n, f32, stream)
        self.kernels = {"gravity": apply_gravity, "move": move}
        self.launches = dict(zip(PHASE_NAMES, [
            k.prepare(simt.LaunchConfig1D.for_len(n, block=k.contract.block[0]), dev) for k in PHASE_KERNELS
        ]))

    def phase(self, name: str, dt: float) -> None:
        kernel = self.kernels[name]
        kernel.launch(self.launches[name], self.stream, self.y, self.vy, self.scratch, dt)
        if name == "gravity":
            self.vy, self.scratch = self.scratch, self.vy
        else:
            self.y, self.scratch = self.scratch, self.y

    def tick(self, dt: float) -> None:
        for name in PHASE_NAMES:
            self.phase(name, dt)

    def landed(self) -> int:
        return int((self.y.to_numpy(self.stream) <= FLOOR).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(9)
    world = ParticleWorld(dev, stream, rng.uniform(1.0, 20.0, PARTICLES).astype(np.float32))
    dt = 1.0 / 30.0
    for frame in range(60):
        world.tick(dt)
        if frame % 15 == 14:
            print(f"t={((frame + 1) * dt):.2f}s: {world.landed()} of {PARTICLES} particles on the floor")


if __name__ == "__main__":
    main()
