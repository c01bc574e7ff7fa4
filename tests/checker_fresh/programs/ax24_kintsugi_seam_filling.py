# fresh-expect: clean
# fresh-note: Repairs a kintsugi bowl through stages registered in a dict: a launch_async lacquer fill is synced before its output buffer is partitioned for a tile gilding launch, and the gilded tensor is lent back to SIMT with as_buffer; the moved buffer is never touched again.
"""Kintsugi repair: lacquer-fill the crack, dust it with gold, and polish, stage by stage."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SEAM = 192
BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def lacquer_fill(gap: Slice[f32], viscosity: Slice[f32], fill: DisjointSlice[f32], coats: int) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := fill.get_mut(idx)) is not None:
        per_coat = 0.04 / viscosity[i]
        o.set(min(gap[i], per_coat * coats))


@tile.kernel
def gild(seam: Partition[f32], gold: f32) -> None:
    s = seam.load()
    seam.store(s + tile.where(s > 0.05, gold, 0.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def polish(seam: Slice[f32], gap: Slice[f32], finish: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := finish.get_mut(idx)) is not None:
        o.set(max(seam[i] - gap[i], 0.0))


@dataclass
class Workshop:
    dev: sk.Device
    stream: sk.Stream
    fill_launch: object = None
    polish_launch: object = None

    def __post_init__(self) -> None:
        cfg = simt.LaunchConfig1D.for_len(SEAM, block=BLOCK)
        self.fill_launch = lacquer_fill.prepare(cfg, self.dev)
        self.polish_launch = polish.prepare(cfg, self.dev)


@dataclass
class Bowl:
    name: str
    gap: sk.DeviceBuffer
    viscosity: sk.DeviceBuffer
    fill: sk.DeviceBuffer | None = None
    seam: Tensor[f32] | None = None
    finish: np.ndarray | None = None
    log: list[str] = field(default_factory=list)


STAGES: dict[str, Callable[[Bowl, Workshop], None]] = {}


def stage(name: str) -> Callable[[Callable[[Bowl, Workshop], None]], Callable[[Bowl, Workshop], None]]:
    def register(fn: Callable[[Bowl, Workshop], None]) -> Callable[[Bowl, Workshop], None]:
        STAGES[name] = fn
        return fn
    return register


@stage("urushi")
def _urushi(bowl: Bowl, ws: Workshop) -> None:
    bowl.fill = sk.zeros(SEAM, f32, ws.stream)
    pending = lacquer_fill.launch_async(ws.fill_launch, bowl.gap, bowl.viscosity, bowl.fill, 7)
    bowl.log.append("lacquer curing in the muro")
    pending.sync_on(ws.stream)


@stage("gold")
def _gold(bowl: Bowl, ws: Workshop) -> None:
    parts = bowl.fill.partition((32,))
    bowl.fill = None
    parts, _ = gild(parts, 0.015).sync_on(ws.stream)
    bowl.seam = parts.unpartition()


@stage("polish")
def _polish(bowl: Bowl, ws: Workshop) -> None:
    finish = sk.zeros(SEAM, f32, ws.stream)
    polish.launch(ws.polish_launch, ws.stream, sk.as_buffer(bowl.seam), bowl.gap, finish)
    bowl.finish = finish.to_numpy(ws.stream)


def repair(bowl: Bowl, ws: Workshop, order: tuple[str, ...] = ("urushi", "gold", "polish")) -> Bowl:
    for name in order:
        STAGES[name](bowl, ws)
    return bowl


def cracked_bowl(name: str, ws: Workshop, seed: int) -> Bowl:
    rng = np.random.default_rng(seed)
    gap = np.clip(rng.gamma(2.0, 0.05, SEAM), 0.0, 0.4).astype(np.float32)
    visc = rng.uniform(0.8, 1.4, SEAM).astype(np.float32)
    return Bowl(name, sk.to_device(gap, ws.stream), sk.to_device(visc, ws.stream))


def main() -> None:
    dev = sk.Device.default()
    ws = Workshop(dev, dev.new_stream())
    for seed, name in enumerate(("chawan", "sake cup")):
        bowl = repair(cracked_bowl(name, ws, seed), ws)
        proud = int((bowl.finish > 0.0).sum())
        print(f"{bowl.name:9s} {proud:3d} of {SEAM} seam points stand proud; {'; '.join(bowl.log)}")


if __name__ == "__main__":
    main()
