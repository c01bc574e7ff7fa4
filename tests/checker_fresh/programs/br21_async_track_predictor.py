# fresh-expect: E0502 at line 56
# fresh-known-miss: cli,mypy `cur`/`nxt` swapped right after `launch_async` and read by a publisher task during the `await`: a pending op's loans across an `await` are not related to another task's reads
# fresh-note: the tracker swaps its state buffers right after queueing the prediction instead of after syncing it, so the publisher task, running during the tick's await, copies the buffer the pending prediction is still writing.
"""Multi-target track prediction at a fixed rate with asyncio.

A perception node keeps constant-velocity tracks (x, y, vx, vy per target) on the device.  The predictor
task advances all tracks every tick with one asynchronous SIMT launch and yields to the event loop while
the device works; a publisher task snapshots the newest state for the planner at its own rate.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

TRACKS = 24
STATE = 4 * TRACKS


@simt.kernel
@simt.launch_contract(block=32)
def predict(state: Slice[f32], dt: f32, damping: f32, out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        if i % 4 < 2:
            o.set(state[i] + dt * state[i + 2])
        else:
            o.set(state[i] * damping)


@dataclass
class TrackerConfig:
    rate_hz: float = 50.0
    damping: float = 0.995
    ticks: int = 8


class TrackPredictor:
    def __init__(self, cfg: TrackerConfig, dev: sk.Device, stream: sk.Stream, init: np.ndarray) -> None:
        self.cfg = cfg
        self.stream = stream
        self.cur = sk.to_device(init.astype(np.float32), stream)
        self.nxt = sk.zeros(STATE, f32, stream)
        self.prepared = predict.prepare(simt.LaunchConfig1D.for_len(STATE, block=32), dev)
        self.tick_count = 0

    def snapshot(self) -> np.ndarray:
        return self.cur.to_numpy(self.stream).reshape(TRACKS, 4)

    async def tick(self) -> None:
        dt = 1.0 / self.cfg.rate_hz
        pending = predict.launch_async(self.prepared, self.cur, dt, self.cfg.damping, self.nxt)
        self.cur, self.nxt = self.nxt, self.cur
        await asyncio.sleep(0)  # let the other tasks run while the device works
        pending.sync_on(self.stream)
        self.tick_count += 1

    async def run(self) -> None:
        for _ in range(self.cfg.ticks):
            await self.tick()
            await asyncio.sleep(0.001)


@dataclass
class Publisher:
    source: TrackPredictor
    period_s: float = 0.002
    published: list[np.ndarray] = field(default_factory=list)

    async def run(self, until: asyncio.Event) -> None:
        while not until.is_set():
            snap = self.source.snapshot()
            self.published.append(snap[:, :2].copy())
            await asyncio.sleep(self.period_s)


def initial_tracks(seed: int = 9) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pos = rng.uniform(-20.0, 20.0, (TRACKS, 2))
    vel = rng.normal(0.0, 1.5, (TRACKS, 2))
    return np.hstack([pos, vel]).ravel()


async def run_node(cfg: TrackerConfig) -> tuple[TrackPredictor, Publisher]:
    dev = sk.Device.default()
    stream = dev.new_stream()
    predictor = TrackPredictor(cfg, dev, stream, initial_tracks())
    publisher = Publisher(predictor)
    done = asyncio.Event()

    async def predictor_then_stop() -> None:
        try:
            await predictor.run()
        finally:
            done.set()

    await asyncio.gather(predictor_then_stop(), publisher.run(done))
    return predictor, publisher


def main() -> None:
    cfg = TrackerConfig()
    predictor, publisher = asyncio.run(run_node(cfg))
    init = initial_tracks().reshape(TRACKS, 4)
    dt, d = 1.0 / cfg.rate_hz, cfg.damping
    pos, vel = init[:, :2].copy(), init[:, 2:].copy()
    for _ in range(cfg.ticks):
        pos, vel = pos + dt * vel, vel * d
    np.testing.assert_allclose(predictor.snapshot()[:, :2], pos, rtol=1e-5, atol=1e-5)
    print(f"{predictor.tick_count} ticks, {len(publisher.published)} snapshots published, "
          f"mean speed {np.linalg.norm(predictor.snapshot()[:, 2:], axis=1).mean():.3f} m/s")


if __name__ == "__main__":
    main()
