# fresh-expect: E0505 at line 53
"""Square a signal with a SIMT kernel, then sum it per tile with a tile kernel through a helper class."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 128


@simt.kernel
@simt.launch_contract(block=128)
def square(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


@tile.kernel
def tile_sums(sums: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((tile.bid(0),), (TILE,))
    sums.store(tile.sum(t, axis=0, keepdims=True))


class Energy:
    def __init__(self, samples: np.ndarray, stream: sk.Stream) -> None:
        self.x = sk.to_device(samples, stream)
        self.squared = sk.zeros(len(samples), f32, stream)

    @property
    def as_tensor_input(self) -> sk.DeviceBuffer:
        return self.squared

    @property
    def num_tiles(self) -> int:
        return -(-len(self.squared) // TILE)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 1024
    rng = np.random.default_rng(41)
    samples = rng.standard_normal(n).astype(np.float32)
    energy = Energy(samples, stream)
    prep = square.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    pending = square.launch_async(prep, energy.x, energy.squared)
    sums = tile.zeros((energy.num_tiles,), f32).partition((1,))
    reduce_op = tile_sums(sums, energy.as_tensor_input)
    pending.sync_on(stream)
    sums, _sq = reduce_op.sync_on(stream)
    got = sums.unpartition().to_numpy(stream)
    np.testing.assert_allclose(got, (samples**2).reshape(-1, TILE).sum(axis=1), rtol=1e-5)
    print("per-tile energy", got[:4])


if __name__ == "__main__":
    main()
