# fresh-expect: E0382 at line 36
"""Script code under the __main__ guard: a SIMT result goes through a tile stage, then the old name is launched."""
import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 128
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    a = sk.to_device(np.ones(n, np.float32), stream)
    b = sk.to_device(np.ones(n, np.float32), stream)
    c = sk.zeros(n, f32, stream)
    d = sk.zeros(n, f32, stream)
    vecadd.launch(prepared, stream, a, b, c)
    z, _ = double(c.partition((64,)), tile.ones((n,), f32)).sync_on(stream)
    vecadd.launch(prepared, stream, c, b, d)  # BUG
    print(d.to_numpy(stream)[:4])
