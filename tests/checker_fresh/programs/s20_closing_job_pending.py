# fresh-expect: E0505 at line 48
"""A job object is used with contextlib.closing so close() syncs its pending launch; inside, the output goes to a
tile stage too early."""
from contextlib import closing

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


class AsyncAdd:
    def __init__(self, prepared, stream, a, b, out) -> None:
        self.stream = stream
        self.op = vecadd.launch_async(prepared, a, b, out)

    def close(self) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    a = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    with closing(AsyncAdd(prepared, stream, a, a, out)):
        doubled, _ = double(out.partition((64,)), tile.ones((n,), f32)).sync_on(stream)  # BUG
    print(doubled.unpartition().to_numpy(stream)[:4])


main()
