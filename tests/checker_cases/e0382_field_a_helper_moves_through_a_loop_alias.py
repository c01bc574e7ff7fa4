"""The error twin: the helper moves the team's fields into a launch and keeps the values `sync_on` hands back in
locals only, so after `for team in (a, b): tire(team, s)` the field `a.speed` is the moved partition: E0382 at the
next launch reading it, as the runtime raises."""

from dataclasses import dataclass

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@dataclass
class Team:
    speed: Partition[f32]
    fatigue: Tensor[f32]


def tire(team: Team, stream: sk.Stream) -> float:
    speed, fatigue = scale(team.speed, team.fatigue).sync_on(stream)
    return float(speed.unpartition().to_numpy(stream).mean())


def run(a: Team, b: Team, stream: sk.Stream) -> None:
    for team in (a, b):
        tire(team, stream)
    a.speed, a.fatigue = scale(a.speed, a.fatigue).sync_on(stream)  # expect: E0382


def fresh(stream: sk.Stream) -> Team:
    return Team(tile.zeros((64,), f32).partition((32,)).sync_on(stream), tile.ones((64,), f32).sync_on(stream))


if __name__ == "__main__":
    s = sk.Device.cpu().new_stream()
    run(fresh(s), fresh(s), s)
