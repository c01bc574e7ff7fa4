# fresh-expect: E0382 at line 26
"""A two-kernel chain: the continuation passed to `then` launches the second kernel on the original input,
which the first launch already took ownership of."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    n = 128
    x = tile.arange(n, f32)
    first = double(tile.zeros((n,), f32).partition((64,)), x)
    out = tile.zeros((n,), f32).partition((64,))
    chained = first.then(lambda v: add(out, v[0].unpartition(), x))  # BUG
    z, _, _ = chained.sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
