# fresh-expect: E0505 at line 24
"""A tensor lent to a SIMT kernel with as_buffer, then partitioned while the async launch is pending."""
import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def negate(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(-x[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
t = tile.ones((64,), f32).sync_on(stream)
out = sk.zeros(64, f32, stream)
op = negate.launch_async(negate.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev), t.as_buffer(), out)
parts = t.partition((16,))  # BUG E0505
op.sync_on(stream)
