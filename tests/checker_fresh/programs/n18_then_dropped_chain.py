# fresh-expect: W0003 at line 22
"""A pending launch is chained with a logging callback, but the chain is never run."""
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


def launch_and_log(stream, dev, a, b, c) -> None:
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    pending = vecadd.launch_async(prepared, a, b, c)
    pending.then(lambda values: print("vecadd done"))  # BUG W0003


dev = sk.Device.cpu()
stream = dev.new_stream()
launch_and_log(stream, dev, sk.to_device(np.ones(64, np.float32), stream),
               sk.to_device(np.ones(64, np.float32), stream), sk.zeros(64, f32, stream))
