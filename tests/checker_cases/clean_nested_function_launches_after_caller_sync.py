"""A nested function launches with the enclosing function's buffers after the enclosing function's pending op ran,
with a launch prepared for its own kernel: nothing borrows them any more, and the brands match."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=64)
def vecmul(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] * b[i])


def main(stream: sk.Stream, dev: sk.Device, flag: bool) -> None:
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    prep_mul = vecmul.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)

    def again() -> None:
        vecadd.launch(prep, stream, a, b, c)

    def other() -> None:
        vecmul.launch(prep_mul, stream, a, b, c)

    pending = vecadd.launch_async(prep, a, b, c)
    pending.sync_on(stream)
    again()
    if flag:
        other()
