"""The clean twin of `e0382_method_reads_items_another_method_moved`: the loop stores each stem `sync_on` hands
back under its name (`self.stems[name] = stem`), so the later method reads live tensors."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64
TILE = 32


@tile.kernel
def rectify(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    out.store(tile.maximum(t, -t))


class Follower:
    def __init__(self, stream: sk.Stream, names: list[str]) -> None:
        self.stream = stream
        self.stems = {name: tile.from_numpy(np.full(N, -1.0, np.float32)).sync_on(stream) for name in names}

    def envelopes(self) -> list[np.ndarray]:
        out = []
        for name, stem in self.stems.items():
            env = tile.zeros((N,), f32).partition((TILE,))
            env, stem = rectify(env, stem).sync_on(self.stream)
            self.stems[name] = stem
            out.append(env.unpartition().to_numpy(self.stream))
        return out

    def peaks(self, names: list[str]) -> list[float]:
        return [float(self.stems[name].to_numpy(self.stream).max()) for name in names]


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    follower = Follower(stream, ["kick", "bass"])
    print(len(follower.envelopes()))
    print(follower.peaks(["kick", "bass"]))


if __name__ == "__main__":
    main()
