# fresh-expect: E0505 at line 64
# fresh-note: The run loop starts an async `snapshot` copy that borrows the state tensor (through `sk.as_buffer`) and flushes it only after `sim.advance()`, whose `fisher` tile launch moves `self.state` while the copy is still pending.
"""Fisher-KPP front propagation with periodic asynchronous checkpoints and a restart check.

The state advances in a Tile kernel; checkpoints are SIMT copies of the state into ring slots, started with
`launch_async` so the copy can overlap the next time step, then flushed every `every` steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

T = 16


@simt.kernel
@simt.launch_contract(block=64)
def snapshot(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


@tile.kernel
def fisher(z: Partition[f32], u: Tensor[f32], dt: f32, diff: f32, rate: f32) -> None:
    n = u.shape[0]
    i = tile.iota(T, i32) + tile.bid(0) * T
    left = tile.gather(u, tile.maximum(i - 1, 0))
    right = tile.gather(u, tile.minimum(i + 1, n - 1))
    c = tile.load_like(u, z)
    z.store(c + dt * (diff * (left - 2.0 * c + right) + rate * c * (1.0 - c)))


@dataclass
class RunConfig:
    n: int = 128
    steps: int = 24
    every: int = 8
    dt: float = 0.2
    diff: float = 1.0
    rate: float = 0.5


class FrontSim:
    def __init__(self, cfg: RunConfig, stream: sk.Stream) -> None:
        self.cfg, self.stream = cfg, stream
        u0 = np.zeros(cfg.n, np.float32)
        u0[: cfg.n // 8] = 1.0
        self.state = tile.from_numpy(u0).sync_on(stream)
        self.spare = tile.zeros((cfg.n,), f32).sync_on(stream)
        self.step_count = 0

    def advance(self) -> None:
        c = self.cfg
        z, self.state, *_ = fisher(self.spare.partition((T,)), self.state, c.dt, c.diff, c.rate).sync_on(self.stream)
        self.spare, self.state = self.state, z.unpartition()
        self.step_count += 1

    def restore(self, host: np.ndarray, step: int) -> None:
        self.state = tile.from_numpy(host).sync_on(self.stream)
        self.step_count = step


@dataclass
class Checkpointer:
    n: int
    device: sk.Device
    stream: sk.Stream
    saved: dict[int, sk.DeviceBuffer] = field(default_factory=dict)
    inflight: list[tuple[int, sk.DeviceBuffer, sk.DeviceOp]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.prepared = snapshot.prepare(simt.LaunchConfig1D.for_len(self.n, block=64), self.device)

    def begin(self, step: int, state: Tensor) -> None:
        slot = sk.zeros(self.n, f32, self.stream)
        self.inflight.append((step, slot, snapshot.launch_async(self.prepared, sk.as_buffer(state), slot)))

    def flush(self) -> None:
        for step, slot, op in self.inflight:
            op.sync_on(self.stream)
            self.saved[step] = slot
        self.inflight.clear()

    def latest(self) -> tuple[int, np.ndarray]:
        step = max(self.saved)
        return step, self.saved[step].to_numpy(self.stream)


def run(sim: FrontSim, ckpt: Checkpointer) -> np.ndarray:
    cfg = sim.cfg
    try:
        while sim.step_count < cfg.steps:
            if sim.step_count % cfg.every == 0:
                ckpt.begin(sim.step_count, sim.state)
            sim.advance()
            if sim.step_count % cfg.every == 0:
                ckpt.flush()
    finally:
        ckpt.flush()
    return sim.state.to_numpy(sim.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = RunConfig()
    sim, ckpt = FrontSim(cfg, stream), Checkpointer(cfg.n, dev, stream)
    reference = run(sim, ckpt)
    step, host = ckpt.latest()
    sim.restore(host, step)
    replay = run(sim, ckpt)
    assert np.allclose(reference, replay), "restart diverged"
    print(f"front at cell {int((reference > 0.5).sum())}, restart from step {step} reproduced the run")


if __name__ == "__main__":
    main()
