# fresh-expect: E0502 at line 67
# fresh-note: mass-spring cloth with Verlet integration over three rotating position buffers; the rotation forgets to recycle `prev` into `nxt`, so on the second step the output buffer is the current positions being read.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

W = 16  # cloth is W x W particles, flattened row-major


@simt.kernel
@simt.launch_contract(block=64)
def verlet(pos: Slice[f32], prev: Slice[f32], nxt: DisjointSlice[f32], k: f32, dt2: f32, damp: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := nxt.get_mut(idx)) is not None:
        row = i // W
        col = i % W
        x = pos[i]
        force = f32(0.0)
        if col > 0:
            force += k * (pos[i - 1] - x)
        if col < W - 1:
            force += k * (pos[i + 1] - x)
        if row > 0:
            force += k * (pos[i - W] - x)
        if row < W - 1:
            force += k * (pos[i + W] - x)
        force -= f32(9.81)
        if row == 0:
            o.set(x)  # the top edge is pinned to the rail
        else:
            o.set(x + damp * (x - prev[i]) + force * dt2)


@dataclass
class ClothParams:
    stiffness: float = 40.0
    dt: float = 0.01
    damping: float = 0.98


class ClothState:
    def __init__(self, dev: sk.Device, stream: sk.Stream, params: ClothParams) -> None:
        self.stream = stream
        self.params = params
        n = W * W
        rest = np.zeros(n, np.float32)
        self.pos = sk.to_device(rest, stream)
        self.prev = sk.to_device(rest, stream)
        self.nxt = sk.zeros(n, f32, stream)
        self.launch_cfg = verlet.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
        self.steps = 0

    @property
    def dt2(self) -> float:
        return self.params.dt * self.params.dt

    def step(self) -> None:
        p = self.params
        verlet.launch(self.launch_cfg, self.stream, self.pos, self.prev, self.nxt, p.stiffness, self.dt2, p.damping)
        # advance the history: prev <- pos <- nxt (nxt is scratch for the next step)
        self.prev, self.pos = self.pos, self.nxt
        self.steps += 1

    def sag(self) -> float:
        heights = self.pos.to_numpy(self.stream).reshape(W, W)
        return float(heights[-1].mean())


def simulate(frames: int) -> list[float]:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cloth = ClothState(dev, stream, ClothParams())
    trace = []
    for _ in range(frames):
        cloth.step()
        trace.append(cloth.sag())
    return trace


def main() -> None:
    trace = simulate(6)
    assert trace[-1] < 0.0, "the free edge should sag under gravity"
    print("cloth sag per frame:", ", ".join(f"{h:.5f}" for h in trace))


if __name__ == "__main__":
    main()
