"""The clean twin of `e0499_nonlocal_op_keeps_its_loans`: the op the nested function leaves in `pending` runs
before the caller's launch writes `c` again, which ends its loans."""

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
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    pending: Any = None

    def start() -> None:
        nonlocal pending
        pending = vecadd.launch_async(prep, a, b, c)

    start()
    pending.sync_on(stream)
    vecadd.launch(prep, stream, a, b, c)


if __name__ == "__main__":
    main()
