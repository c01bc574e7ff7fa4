# fresh-expect: E0505 at line 41
"""A context manager of the user's own syncs a pending launch at the end of the block; the block moves its output."""
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


class Pending:
    def __init__(self, op, stream) -> None:
        self.op = op
        self.stream = stream
        self.values = None

    def __enter__(self) -> "Pending":
        return self

    def __exit__(self, *exc: object) -> bool:
        self.values = self.op.sync_on(self.stream)
        return False


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 64
a = sk.to_device(np.ones(n, np.float32), stream)
b = sk.to_device(np.ones(n, np.float32), stream)
c = sk.zeros(n, f32, stream)
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
with Pending(vecadd.launch_async(prepared, a, b, c), stream):
    parts = c.partition((32,))  # BUG E0505
