"""A store under a literal key of a dict display bound to a name (`heads["k"] = k_back`) replaces that item only:
the name stays a container whose other items are what the display put there, and `heads["k"]` is the stored value
from there on.  So `keep = heads["k"]` still refers to the buffer the tile launch moved, and reading it after the
store is E0382 (the runtime raises `UseAfterMoveError` at the marked line)."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256
TILE = 64


@tile.kernel
def squared(z: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, z)
    z.store(t * t)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    heads = {
        "q": tile.from_numpy(np.ones(N, np.float32)).sync_on(stream),
        "k": tile.from_numpy(np.full(N, 2.0, np.float32)).sync_on(stream),
    }
    keep = heads["k"]
    norms = tile.zeros((N,), f32).partition((TILE,))
    norms, k_back = squared(norms, heads["k"]).sync_on(stream)
    heads["k"] = k_back
    try:
        print(keep.to_numpy(stream)[:3])  # expect: E0382
    except sk.UseAfterMoveError as err:
        print("UseAfterMoveError:", err)
    print(heads["q"].to_numpy(stream)[:3], norms.unpartition().to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
