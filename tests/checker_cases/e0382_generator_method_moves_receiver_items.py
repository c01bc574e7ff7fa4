"""A generator method the caller iterates (`for env in follower.envelopes()`, `list(follower.envelopes())`) runs
its body while the caller takes its items: a tile launch there moves each stem of `self.stems` and keeps only the
handed-back tensor in its loop name, so the dict still holds the moved stems after the loop.  The runtime raises
where the next method reads one."""

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def rectify(env: Partition[f32], audio: Tensor[f32]) -> None:
    t = tile.load_like(audio, env)
    env.store(tile.maximum(t, -t))


class Follower:
    def __init__(self, stream: sk.Stream, stems: dict[str, np.ndarray]) -> None:
        self.stream = stream
        self.stems = {name: tile.from_numpy(x).sync_on(stream) for name, x in stems.items()}

    def envelopes(self) -> Iterator[np.ndarray]:
        for name, stem in self.stems.items():
            env = tile.zeros((N,), f32).partition((N,))
            env, stem = rectify(env, stem).sync_on(self.stream)
            yield env.unpartition().to_numpy(self.stream)

    def peak(self, name: str) -> float:
        return float(np.abs(self.stems[name].to_numpy(self.stream)).max())  # expect: E0382


def loop_over_items(stream: sk.Stream) -> None:
    follower = Follower(stream, {"kick": np.ones(N, np.float32)})
    for env in follower.envelopes():
        print(env.max())
    print(follower.peak("kick"))


def drained_by_list(stream: sk.Stream) -> None:
    follower = Follower(stream, {"kick": np.ones(N, np.float32)})
    envs = list(follower.envelopes())
    print(len(envs), follower.peak("kick"))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    loop_over_items(stream)
    drained_by_list(stream)
