"""Clean twin of e0382_attribute_path_through_name_alias: a field rebound through one name after the move is the
new object through the other name too, a helper that only reads the fields moves nothing, and the name kept from
the loop is read before the next iteration moves its fields."""

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


def peek(swarm: Swarm, stream: sk.Stream) -> float:
    return float(swarm.vel.to_numpy(stream).sum())


def direct(stream: sk.Stream) -> None:
    sw = new_swarm(stream)
    kept = sw
    out, sw.pos = double(tile.zeros((N,), f32).partition((64,)), sw.pos).sync_on(stream)
    print(kept.pos.to_numpy(stream), out.unpartition().to_numpy(stream)[:2])


def through_helper(stream: sk.Stream) -> None:
    sw = new_swarm(stream)
    kept = sw
    peek(sw, stream)
    print(kept.pos.to_numpy(stream))


def best_of_loop(stream: sk.Stream) -> None:
    swarm = new_swarm(stream)
    for step in range(3):
        best = swarm
        print(step, best.pos.to_numpy(stream)[:2])
        swarm = advance(swarm, stream)
    print(swarm.pos.to_numpy(stream)[:2])


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    direct(stream)
    through_helper(stream)
    best_of_loop(stream)
    print("ok")


if __name__ == "__main__":
    main()
