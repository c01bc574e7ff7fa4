# fresh-expect: E0382 at line 44
"""A Bridge object lends a tile tensor to SIMT code through `as_buffer()` and caches the handle; after the tensor
is partitioned for the next tile stage, the cached handle is used again."""
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


class Bridge:
    def __init__(self, tensor) -> None:
        self.tensor = tensor
        self.view = tensor.as_buffer()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 128
    t = tile.ones((n,), f32).sync_on(stream)
    bridge = Bridge(t)
    ones = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    axpy.launch(prepared, stream, bridge.view, ones, out)
    z, _ = double(bridge.tensor.partition((64,)), tile.ones((n,), f32)).sync_on(stream)
    axpy.launch(prepared, stream, bridge.view, ones, out)  # BUG
    print(out.to_numpy(stream)[:2], z.shape)


if __name__ == "__main__":
    main()
