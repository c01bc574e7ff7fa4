# fresh-expect: E0502 at line 23
"""An optional output falls back to an input buffer through dict.get."""
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

dev = sk.Device.cpu()
stream = dev.new_stream()
bufs = {"x": sk.to_device(np.ones(128, np.float32), stream), "y": sk.to_device(np.ones(128, np.float32), stream)}
out = bufs.get("out", bufs["x"])
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
vecadd.launch(prepared, stream, bufs["x"], bufs["y"], out)  # BUG
