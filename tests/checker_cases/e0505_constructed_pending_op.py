"""A pending `launch_async` op handed to a constructor is kept by the new object: it still borrows its buffers
while the object (or the `with` statement using it as a context manager) holds it, so moving a buffer it
borrows meanwhile is refused (`BorrowError` at run time), as when the op is bound to a name."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class Pending:
    """Runs its op when the `with` block ends."""

    def __init__(self, op: Any, stream: sk.Stream) -> None:
        self.op = op
        self.stream = stream

    def __enter__(self) -> "Pending":
        return self

    def __exit__(self, *exc: object) -> bool:
        self.op.sync_on(self.stream)
        return False


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.to_device(np.ones(32, np.float32), stream)
    c = sk.zeros(32, f32, stream)
    d = sk.zeros(32, f32, stream)
    with Pending(vecadd.launch_async(prep, a, b, c), stream):
        c.partition((16,))  # expect: E0505
    job = Pending(vecadd.launch_async(prep, a, b, d), stream)
    a.partition((16,))  # expect: E0505
    job.op.sync_on(stream)
