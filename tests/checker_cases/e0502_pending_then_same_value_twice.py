"""One message is reported once per line, at its first column: both `a`s of the second launch conflict with the
pending launch's mutable borrow of `a`, and the report is on the first (as mypy shows a message once per line)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.zeros(n, f32, stream)
    b = sk.zeros(n, f32, stream)
    c = sk.zeros(n, f32, stream)
    p1 = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    op1 = vecadd.launch_async(p1, a, b, a)  # expect: E0502@col=41
    vecadd.launch(p1, stream, a, a, c)  # expect: E0502@col=31
    op1.sync_on(stream)
