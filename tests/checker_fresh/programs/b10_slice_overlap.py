# fresh-expect: E0502 at line 24
"""Python slices of a buffer are views; these two overlap."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def copy(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
data = sk.to_device(np.arange(512, dtype=np.float32), stream)
front = data[0:256]
prepared = copy.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev)
copy.launch(prepared, stream, front, data[128:384])  # BUG E0502
