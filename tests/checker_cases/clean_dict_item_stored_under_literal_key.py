"""A store under a literal key of a dict display bound to a name (`heads["k"] = k_back`) replaces that item only:
`heads["k"]` is the stored value from there on, so reading it after the tile launch moved the buffer it held before
is fine (the runtime runs this), while the display's other item is still the buffer it put there."""

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
    keep = heads["k"]
    print(keep.to_numpy(stream)[:3])
    print(heads["q"].to_numpy(stream)[:3], norms.unpartition().to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
