"""A dict comprehension over a registry of kernels (`{name: kernel}`, a dict display bound once) prepares one launch
per entry, each branded by its entry's kernel: `launches["vecadd"]` is `vecadd`'s, so launching `saxpy` with it is
a mismatch, and `launches[key]` of a key the checker cannot read may be any entry's, so only a kernel that is no
entry's is a mismatch for sure."""

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


@simt.kernel
@simt.launch_contract(block=64)
def vecsub(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] - b[i])


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
    saxpy.launch(launches["vecadd"], stream, x, y, out, 2.0)  # expect: E0308
    key = "vec" + "add"
    vecsub.launch(launches[key], stream, x, y, out)  # expect: E0308
