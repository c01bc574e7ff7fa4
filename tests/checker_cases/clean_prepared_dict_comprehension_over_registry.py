"""The clean twin of `e0308_prepared_dict_comprehension_over_registry`: each kernel launches with the entry the
comprehension prepared for it, and `launches[key]` of a key the checker cannot read may be the launching kernel's
own entry."""

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


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    kernels = {"vecadd": vecadd, "saxpy": saxpy}
    config = simt.LaunchConfig1D.for_len(128, block=64)
    launches = {name: kernel.prepare(config, dev) for name, kernel in kernels.items()}
    x = sk.to_device(np.ones(128, np.float32), stream)
    y = sk.to_device(np.ones(128, np.float32), stream)
    out = sk.zeros(128, f32, stream)
    vecadd.launch(launches["vecadd"], stream, x, y, out)
    saxpy.launch(launches["saxpy"], stream, x, y, out, 2.0)
    key = "vec" + "add"
    vecadd.launch(launches[key], stream, x, y, out)
    print(out.to_numpy(stream)[:4])
