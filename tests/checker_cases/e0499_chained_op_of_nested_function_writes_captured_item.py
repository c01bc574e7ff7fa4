"""A nested function's pending op, chained by `first().partition(...)`, still writes the captured `c` when its next
launch writes `named["c"]`: inside the nested function the two are different caller's values, at its call the
caller knows they are one buffer: E0499, as the runtime's `BorrowError` (the chain holds the first op's loans)."""

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


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    named = {"c": c}

    def step() -> None:
        tmp = sk.zeros(64, f32, stream)
        pending = vecadd.launch_async(prep, tmp, a, c)
        staged = pending.first().partition((16,))
        vecadd.launch(prep, stream, b, a, named["c"])  # expect: E0499
        print(staged.sync_on(stream).unpartition().to_numpy(stream))

    step()
