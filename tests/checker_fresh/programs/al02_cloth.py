# fresh-expect: clean
# fresh-note: cloth curtain with Verlet integration whose three position buffers rotate correctly, and a wind gust applied by a launch_async op that is synced before the next step reads it.
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

W = 12


@simt.kernel
@simt.launch_contract(block=64)
def verlet(pos: Slice[f32], prev: Slice[f32], nxt: DisjointSlice[f32], k: f32, dt2: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := nxt.get_mut(idx)) is not None:
        col = i % W
        x = pos[i]
        force = f32(-9.81)
        if col > 0:
            force += k * (pos[i - 1] - x)
        if col < W - 1:
            force += k * (pos[i + 1] - x)
        if i >= W:
            force += k * (pos[i - W] - x)
            o.set(x + f32(0.99) * (x - prev[i]) + force * dt2)
        else:
            o.set(x)


@simt.kernel
@simt.launch_contract(block=64)
def gust(base: Slice[f32], out: DisjointSlice[f32], strength: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(base[i] + strength * f32(i % W) / f32(W))


@dataclass
class Curtain:
    pos: sk.DeviceBuffer
    prev: sk.DeviceBuffer
    nxt: sk.DeviceBuffer
    history: list[float] = field(default_factory=list)

    def rotate(self) -> None:
        self.prev, self.pos, self.nxt = self.pos, self.nxt, self.prev


def make_curtain(stream: sk.Stream) -> Curtain:
    n = W * W
    start = np.zeros(n, np.float32)
    return Curtain(sk.to_device(start, stream), sk.to_device(start, stream), sk.zeros(n, f32, stream))


def run(frames: int) -> Curtain:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(W * W, block=64)
    step_launch = verlet.prepare(cfg, dev)
    gust_launch = gust.prepare(cfg, dev)
    c = make_curtain(stream)
    for frame in range(frames):
        verlet.launch(step_launch, stream, c.pos, c.prev, c.nxt, 30.0, 1e-4)
        c.rotate()
        if frame % 3 == 2:
            # push the freshly integrated positions sideways into the scratch buffer, then swap it in
            pending = gust.launch_async(gust_launch, c.pos, c.nxt, 0.002)
            pending.sync_on(stream)
            c.pos, c.nxt = c.nxt, c.pos
        c.history.append(float(c.pos.to_numpy(stream).min()))
    return c


def main() -> None:
    curtain = run(7)
    assert len(curtain.history) == 7
    assert curtain.history[-1] < 0.0
    print("lowest point per frame:", [round(h, 6) for h in curtain.history])


if __name__ == "__main__":
    main()
