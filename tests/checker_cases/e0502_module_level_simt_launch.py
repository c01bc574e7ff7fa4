"""A SIMT launch in a module's top-level code: the module's own kernels are kernels there too."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def pick(x: sk.DeviceBuffer[f32], y: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
    return y


dev = sk.Device.cpu()
stream = dev.new_stream()
b = sk.zeros(10, f32, stream)
c = sk.zeros(10, f32, stream)
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(10, block=256), dev)
vecadd.launch(prepared, stream, c, b, c)  # expect: E0502
vecadd.launch(prepared, stream, pick(b, c), b, c)  # expect: E0502
