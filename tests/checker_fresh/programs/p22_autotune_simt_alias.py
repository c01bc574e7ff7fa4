# fresh-expect: E0502 at line 23
"""An autotuned SIMT kernel launched with its output also as an input."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.autotune(configs=[64, 128], key=["a"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


stream = sk.Device.cpu().new_stream()
a = sk.to_device(np.ones(256, np.float32), stream)
c = sk.zeros(256, f32, stream)
vecadd.launch(stream, a, c, c)  # BUG
