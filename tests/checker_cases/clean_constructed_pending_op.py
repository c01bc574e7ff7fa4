"""The clean twin of `e0505_constructed_pending_op`: a buffer a kept pending op borrows is moved only once the op
has run (the `with` statement's `__exit__` ran it, or the object's op was synced)."""

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
    for _ in range(2):
        with Pending(vecadd.launch_async(prep, a, b, c), stream):
            print(d.to_numpy(stream)[:1])
    c.partition((16,))
    job = Pending(vecadd.launch_async(prep, a, b, d), stream)
    job.op.sync_on(stream)
    a.partition((16,))
