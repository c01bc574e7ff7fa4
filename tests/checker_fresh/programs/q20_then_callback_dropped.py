# fresh-expect: W0003 at line 26
"""A helper attaches a logging callback with `then` and returns; the chained op is never run."""
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


def log_values(values):
    print("launch finished with", len(values), "buffers")
    return values


def launch_and_log(prepared, a, b, c) -> None:
    op = vecadd.launch_async(prepared, a, b, c)
    op.then(log_values)  # BUG


dev = sk.Device.cpu()
stream = dev.new_stream()
a = sk.to_device(np.ones(128, np.float32), stream)
launch_and_log(vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev), a, a, sk.zeros(128, f32, stream))
