"""A nested function launches with the enclosing function's buffers while the enclosing function's `launch_async`
op still borrows them, and with a prepared launch of another kernel: the call runs those launches, so they are
checked against the caller's loans and brands (the runtime raises `BorrowError` and the brand error there)."""

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

    def again() -> None:
        vecadd.launch(prep, stream, a, b, c)  # expect: E0499

    def other() -> None:
        vecmul.launch(prep, stream, a, b, c)  # expect: E0308

    pending = vecadd.launch_async(prep, a, b, c)
    again()
    pending.sync_on(stream)
    if flag:
        other()
