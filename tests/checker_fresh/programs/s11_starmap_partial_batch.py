# fresh-expect: E0502 at line 31
"""A batch of vecadd jobs is run with itertools.starmap over a partial; the residual job accumulates into its own
input."""
import functools
import itertools

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


def run_batch(dev, stream, n: int):
    x = sk.to_device(np.ones(n, np.float32), stream)
    h = sk.zeros(n, f32, stream)
    y = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    launch = functools.partial(vecadd.launch, prepared, stream)
    jobs = [(x, x, h), (h, x, y), (y, x, y)]
    list(itertools.starmap(launch, jobs))  # BUG
    return y.to_numpy(stream)[:4]


dev = sk.Device.cpu()
print(run_batch(dev, dev.new_stream(), 256))
