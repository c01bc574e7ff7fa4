"""A nested function launches with two names it captures (`acc` read, `out` written); after its first call the
caller rebinds `acc = out`, and the nested function, which reads its captures when it runs, now reads and writes
one buffer.  The nested function's own check sees two names; the conflict is the caller's, made at the second
call, and reported there (as rustc reports a closure's conflicting captures where it is used), the launch's
arguments inside labelled as the closure's uses.  A parameter bound to a captured buffer is the same."""

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
    into(out)  # expect: E0502
    acc = out
    step()  # expect: E0502
