# fresh-expect: E0502 at line 32
"""A helper chooses where the result goes; on this run it picks an input."""
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


def destination(fresh, reuse, in_place: bool):
    if in_place:
        return reuse
    return fresh


def run(in_place: bool) -> np.ndarray:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.arange(100, dtype=np.float32), stream)
    b = sk.to_device(np.ones(100, np.float32), stream)
    c = sk.zeros(100, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(100, block=64), dev)
    vecadd.launch(prepared, stream, a, b, destination(c, a, in_place))  # BUG E0502
    return c.to_numpy(stream)


print(run(True)[:4])
