"""An attribute path follows the object, not the name: after `t = sw`, `t.pos` is `sw.pos`, so a tile launch
moving `sw.pos` (directly, or in a helper taking `sw`) moves `t.pos` too (E0382 at the later read, as the
runtime's `UseAfterMoveError` says); also for a name kept from an earlier iteration of a loop that moves the
current object's fields (`tightest = swarm`)."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 128


@tile.kernel
def double(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 2.0)


@dataclass
class Swarm:
    pos: Tensor
    vel: Tensor


def new_swarm(stream: sk.Stream) -> Swarm:
    return Swarm(pos=tile.ones((N,), f32).sync_on(stream), vel=tile.ones((N,), f32).sync_on(stream))


def advance(swarm: Swarm, stream: sk.Stream) -> Swarm:
    out, _pos = double(tile.zeros((N,), f32).partition((64,)), swarm.pos).sync_on(stream)
    return Swarm(pos=out.unpartition(), vel=swarm.vel)


def direct(stream: sk.Stream) -> None:
    sw = new_swarm(stream)
    kept = sw
    double(tile.zeros((N,), f32).partition((64,)), sw.pos).sync_on(stream)
    print(kept.pos.to_numpy(stream))  # expect: E0382


def through_helper(stream: sk.Stream) -> None:
    sw = new_swarm(stream)
    kept = sw
    advance(sw, stream)
    print(kept.pos.to_numpy(stream))  # expect: E0382


def best_of_loop(stream: sk.Stream) -> None:
    swarm = new_swarm(stream)
    best = swarm
    for step in range(3):
        swarm = advance(swarm, stream)
        if step == 1:
            best = swarm
    print(best.pos.to_numpy(stream))  # expect: E0382


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    direct(stream)
    through_helper(stream)
    best_of_loop(stream)


if __name__ == "__main__":
    main()
