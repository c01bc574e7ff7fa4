"""An AtomicTensor output is moved into the launch like every tile argument (docs/tile.md "AtomicTensor"):
passing the same tensor again, as an input or as a second atomic output, is a use after move, so no other
argument can alias the memory every tile block updates."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor


@tile.kernel
def histogram(z: Partition[f32], counts: AtomicTensor[i32], keys: Tensor[i32]) -> None:
    k = tile.load_like(keys, z)
    tile.atomic_add(counts, k, 1)
    z.store(k.astype(f32))


def main() -> None:
    stream = sk.Device(0).new_stream()
    keys = tile.zeros((1024,), i32)
    counts = tile.zeros((16,), i32)
    z = tile.zeros((1024,), f32).partition((128,))
    z, counts, keys = histogram(z, counts, keys).sync_on(stream)
    histogram(z, counts, counts)  # expect: E0382@col=26, W0003
    print(keys)
