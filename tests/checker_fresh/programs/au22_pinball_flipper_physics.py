# fresh-expect: clean
# fresh-note: Pinball table physics; a tile integrator writes position and velocity into two output partitions each frame, table events are dispatched with match, plugin hooks registered by a decorator read the handed-back tensors, and a try/finally reports the frame count.
"""Multi-ball physics for a pinball machine simulator, with table-event plugins."""

from __future__ import annotations

from collections import defaultdict
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BALLS = 64
HOOKS: dict[str, list[Callable]] = defaultdict(list)


def on(event: str):
    def register(fn: Callable) -> Callable:
        HOOKS[event].append(fn)
        return fn
    return register


@tile.kernel
def integrate(pos_out: Partition[f32], vel_out: Partition[f32], pos: Tensor[f32], vel: Tensor[f32],
              kick: f32, dt: f32) -> None:
    v = tile.load_like(vel, vel_out) - 9.8 * 0.12 * dt + kick
    p = tile.load_like(pos, pos_out) + v * dt
    bounced = p < 0.0
    pos_out.store(tile.where(bounced, -p, p))
    vel_out.store(tile.where(bounced, -0.7 * v, v))


@on("frame")
def drain_check(state: "Table") -> None:
    if state.frame % 10 == 0:
        low = int((state.pos.to_numpy(state.stream) < 0.05).sum())
        state.notes.append(f"frame {state.frame}: {low} balls near the drain")


class Table:
    def __init__(self, stream: sk.Stream, rng: np.random.Generator) -> None:
        self.stream = stream
        self.pos = tile.from_numpy(rng.uniform(0.2, 1.0, BALLS).astype(np.float32)).sync_on(stream)
        self.vel = tile.zeros((BALLS,), f32).sync_on(stream)
        self.frame = 0
        self.notes: list[str] = []

    def advance(self, kick: float, dt: float = 0.02) -> None:
        p_out = tile.zeros((BALLS,), f32).partition((32,))
        v_out = tile.zeros((BALLS,), f32).partition((32,))
        p_out, v_out, _, _, _, _ = integrate(p_out, v_out, self.pos, self.vel, kick, dt).sync_on(self.stream)
        self.pos, self.vel = p_out.unpartition(), v_out.unpartition()
        self.frame += 1
        for hook in HOOKS["frame"]:
            hook(self)


def play(table: Table, events: list[tuple]) -> None:
    try:
        for event in events:
            match event:
                case ("flip", strength):
                    table.advance(kick=float(strength))
                case ("tilt",):
                    table.notes.append(f"frame {table.frame}: TILT")
                    break
                case ("idle", frames):
                    for _ in range(frames):
                        table.advance(kick=0.0)
                case other:
                    raise ValueError(f"unknown table event {other!r}")
    finally:
        print(f"played {table.frame} frames")


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    table = Table(stream, np.random.default_rng(31))
    play(table, [("idle", 8), ("flip", 0.9), ("idle", 12), ("flip", 0.4), ("tilt",), ("idle", 5)])
    print("\n".join(table.notes))
    print(f"highest ball {float(table.pos.to_numpy(stream).max()):.2f} m")


if __name__ == "__main__":
    main()
