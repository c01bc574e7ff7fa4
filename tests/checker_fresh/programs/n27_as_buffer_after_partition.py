# fresh-expect: E0382 at line 27
"""Both tracks: a tile tensor lent to SIMT code, then partitioned; the lent handle is used afterwards."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])
from safekernels import tile


def mixed(stream, dev) -> None:
    t = tile.arange(64, f32).sync_on(stream)
    view = t.as_buffer()
    parts = t.partition((32,))
    ones = sk.to_device(np.ones(64, np.float32), stream)
    out = sk.zeros(64, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    vecadd.launch(prepared, stream, view, ones, out)  # BUG E0382
    print(parts.tile_shape)


dev = sk.Device.cpu()
mixed(dev.new_stream(), dev)
