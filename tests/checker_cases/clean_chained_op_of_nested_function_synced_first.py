"""The twin of `e0499_chained_op_of_nested_function_writes_captured_item`: the chained op runs (`sync_on`) before
the next launch writes `named["c"]`, so its loans have ended: clean, at the nested function's call too."""

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
        out = staged.sync_on(stream).unpartition()
        vecadd.launch(prep, stream, b, a, named["c"])
        print(out.to_numpy(stream))

    step()
