# fresh-expect: E0382 at line 31
"""A SIMT buffer partitioned for a tile kernel, then launched on by a SIMT kernel with the old handle."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@tile.kernel
def fill(z: Partition[f32]) -> None:
    z.store(tile.full(z.tile_shape, 3.0, f32))


@simt.kernel
@simt.launch_contract(block=32)
def copy(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
buf = sk.zeros(64, f32, stream)
(part,) = fill(buf.partition((32,))).sync_on(stream)
out = sk.zeros(64, f32, stream)
copy.launch(copy.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev), stream, buf, out)  # BUG E0382
