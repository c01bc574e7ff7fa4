# fresh-expect: clean
# fresh-note: Basketball player-tracking pipeline (finite-difference velocity, autotuned speed kernel, speed-zone histogram) whose prepared launches come from a dict comprehension over a kernel registry, so each entry carries its own kernel's brand.
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

ZONES = 5          # walk, jog, run, high-speed run, sprint
ZONE_WIDTH = 1.5   # m/s per zone


@simt.kernel
@simt.launch_contract(block=128)
def finite_diff(pos: Slice[f32], vel: DisjointSlice[f32], players: u32, inv_dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    nxt = i + players
    if (v := vel.get_mut(idx)) is not None:
        if nxt < len(pos):
            v.set((pos[nxt] - pos[i]) * inv_dt)
        else:
            v.set(f32(0.0))


@simt.autotune(configs=[64, 128, 256], key=["vx"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def speed(vx: Slice[f32], vy: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(math.sqrt(vx[i] * vx[i] + vy[i] * vy[i]))


@simt.device
def speed_zone(s: f32, width: f32) -> int:
    return int(s / width)


@simt.kernel
@simt.launch_contract(block=128)
def zone_histogram(speeds: Slice[f32], counts: AtomicSlice[u32], players: u32, width: f32) -> None:
    i = thread.index_1d().get()
    if i < len(speeds):
        zone = min(speed_zone(speeds[i], width), ZONES - 1)
        counts.fetch_add(zone * players + i % players, u32(1))


@dataclass
class Match:
    frames: int
    players: int
    fps: float
    x: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)


KERNELS = {"diff": finite_diff, "zones": zone_histogram}


def prepare_all(dev: sk.Device, n: int) -> dict[str, simt.PreparedLaunch]:
    cfg = simt.LaunchConfig1D.for_len(n, block=128)
    return {name: kernel.prepare(cfg, dev) for name, kernel in KERNELS.items()}


def analyse(match: Match, dev: sk.Device) -> np.ndarray:
    stream = dev.new_stream()
    n = match.frames * match.players
    launches = prepare_all(dev, n)
    inv_dt = match.fps
    buffers = {axis: sk.to_device(arr.astype(np.float32).ravel(), stream)
               for axis, arr in (("x", match.x), ("y", match.y))}
    vel = {axis: sk.zeros(n, f32, stream) for axis in buffers}
    for axis, pos in buffers.items():
        finite_diff.launch(launches["diff"], stream, pos, vel[axis], match.players, inv_dt)
    speeds = sk.zeros(n, f32, stream)
    speed.launch(stream, vel["x"], vel["y"], speeds)
    counts = sk.zeros(ZONES * match.players, u32, stream)
    zone_histogram.launch(launches["zones"], stream, speeds, counts, match.players, ZONE_WIDTH)
    return counts.to_numpy(stream).reshape(ZONES, match.players)


def synthetic_match(frames: int, players: int, fps: float) -> Match:
    rng = np.random.default_rng(2)
    steps_x = rng.normal(0.0, 0.15, (frames, players)).cumsum(axis=0)
    steps_y = rng.normal(0.0, 0.10, (frames, players)).cumsum(axis=0)
    return Match(frames, players, fps, x=steps_x + 50.0, y=steps_y + 30.0)


if __name__ == "__main__":
    table = analyse(synthetic_match(frames=90, players=10, fps=25.0), sk.Device.cpu())
    print("frames per zone (all players):", table.sum(axis=1).tolist())
