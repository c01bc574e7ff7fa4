# fresh-expect: E0308 at line 38
"""A setup helper returns two prepared launches; the caller unpacks them in the opposite order."""
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


@simt.kernel
@simt.launch_contract(block=64)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


def prepare_all(dev, n: int):
    config = simt.LaunchConfig1D.for_len(n, block=64)
    return saxpy.prepare(config, dev), vecadd.prepare(config, dev)


dev = sk.Device.cpu()
stream = dev.new_stream()
add_launch, saxpy_launch = prepare_all(dev, 128)
a = sk.to_device(np.ones(128, np.float32), stream)
c = sk.zeros(128, f32, stream)
vecadd.launch(add_launch, stream, a, a, c)  # BUG
print(c.to_numpy(stream)[:4])
