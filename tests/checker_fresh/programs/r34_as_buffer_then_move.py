# fresh-expect: clean
"""Clean twin of the cached as_buffer handle: the SIMT launch reads the tile tensor through a fresh `as_buffer()`
handle each round, taken after the tensor came back from the tile launch."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 128
    t = tile.ones((n,), f32).sync_on(stream)
    ones = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    for _ in range(2):
        axpy.launch(prepared, stream, t.as_buffer(), ones, out)
        z, _ = double(t.partition((64,)), tile.ones((n,), f32)).sync_on(stream)
        t = z.unpartition()
    print(out.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
