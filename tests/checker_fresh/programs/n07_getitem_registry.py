# fresh-expect: E0502 at line 32
"""A registry class looks buffers up by name through __getitem__; the output is looked up as an input too."""
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


class Buffers:
    def __init__(self, **bufs) -> None:
        self._bufs = bufs

    def __getitem__(self, name: str):
        return self._bufs[name]


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 64
reg = Buffers(x=sk.to_device(np.ones(n, np.float32), stream), y=sk.zeros(n, f32, stream))
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
vecadd.launch(prepared, stream, reg["x"], reg["y"], reg["y"])  # BUG E0502
