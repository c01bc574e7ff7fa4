"""A helper moves a team's fields into a launch and stores the values `sync_on` hands back into the same fields.
Called through the loop name (`for team in (a, b): recover(team, s)`), or through another name bound to the
parameter (`team = a`), it rebinds `a.speed` too: the object's fields follow the object, not the name.  Clean, as
at run time."""

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


def recover(team: Team, stream: sk.Stream) -> None:
    team.speed, team.fatigue = scale(team.speed, team.fatigue).sync_on(stream)


def run(a: Team, b: Team, stream: sk.Stream) -> None:
    for team in (a, b):
        recover(team, stream)
    a.speed, a.fatigue = scale(a.speed, a.fatigue).sync_on(stream)


def run_again(a: Team, stream: sk.Stream) -> None:
    team = a
    recover(team, stream)
    a.speed, a.fatigue = scale(a.speed, a.fatigue).sync_on(stream)


def fresh(stream: sk.Stream) -> Team:
    return Team(tile.zeros((64,), f32).partition((32,)).sync_on(stream), tile.ones((64,), f32).sync_on(stream))


s = sk.Device.cpu().new_stream()
t1, t2 = fresh(s), fresh(s)
run(t1, t2, s)
run_again(t1, s)
