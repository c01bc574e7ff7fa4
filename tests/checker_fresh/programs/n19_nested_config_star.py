# fresh-expect: E0502 at line 26
"""A nested config dict names the inputs as a tuple; the output is one of them."""
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
n = 64
a = sk.to_device(np.ones(n, np.float32), stream)
b = sk.to_device(np.ones(n, np.float32), stream)
cfg = {"inputs": (a, b), "output": a, "block": 64}
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=cfg["block"]), dev)
vecadd.launch(prepared, stream, *cfg["inputs"], cfg["output"])  # BUG E0502
