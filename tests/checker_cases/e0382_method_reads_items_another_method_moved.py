"""One method of a follower loops over its dict of stems, moving each stem into a tile launch and rebinding only
the loop name to what `sync_on` hands back, so the moved tensors stay in the dict; another method, called after
it, reads `self.stems[name]` under a key the checker cannot name (E0382, as the runtime's `UseAfterMoveError`
says, inside `peaks`).  A callee's read of an item of the caller's container counts at the call, after the moves
an earlier call's loop made there."""

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
            out.append(env.unpartition().to_numpy(self.stream))
        return out

    def peaks(self, names: list[str]) -> list[float]:
        return [float(self.stems[name].to_numpy(self.stream).max()) for name in names]  # expect: E0382


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    follower = Follower(stream, ["kick", "bass"])
    print(len(follower.envelopes()))
    print(follower.peaks(["kick", "bass"]))


if __name__ == "__main__":
    main()
