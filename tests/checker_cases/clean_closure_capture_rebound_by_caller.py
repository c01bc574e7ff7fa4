"""The clean twin of `e0502_closure_capture_rebound_by_caller`: the caller rebinds the captured `acc` to a new
buffer (or to a buffer the nested function only reads), so every call of the nested function reads and writes
distinct buffers."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    acc = sk.zeros(64, f32, stream)
    ones = sk.to_device(np.ones(64, np.float32), stream)
    out = sk.zeros(64, f32, stream)

    def step() -> None:
        axpy.launch(prepared, stream, acc, ones, out)

    def into(dst: sk.DeviceBuffer) -> None:
        axpy.launch(prepared, stream, ones, dst, out)

    step()
    into(acc)
    acc = sk.zeros(64, f32, stream)
    step()
    acc = ones
    step()
    into(acc)
    print(out.to_numpy(stream)[:2])
