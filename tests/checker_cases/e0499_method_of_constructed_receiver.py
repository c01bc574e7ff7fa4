"""A method called on the object a constructor call builds right there (`Holder(a, b, c).run()`): the object's
fields are the buffers it was given, so the method's launch borrows them while the caller's pending op still
does (E0499: both write `c`; E0502: the method reads what the op writes), as the runtime refuses it."""

from typing import Any

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


class Holder:
    def __init__(self, a: Any, b: Any, c: Any, prep: Any, stream: Any) -> None:
        self.a = a
        self.b = b
        self.c = c
        self.prep = prep
        self.stream = stream

    def run(self) -> None:
        vecadd.launch(self.prep, self.stream, self.a, self.b, self.c)  # expect: E0499, E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    op = vecadd.launch_async(prep, a, b, c)
    Holder(a, b, c, prep, stream).run()
    op.sync_on(stream)
    op = vecadd.launch_async(prep, a, b, c)
    Holder(c, b, d, prep, stream).run()
    op.sync_on(stream)
