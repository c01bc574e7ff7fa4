"""A nested function that binds a `nonlocal` name to a pending op (`nonlocal pending; pending =
vecadd.launch_async(prep, a, b, c)`) leaves that op in the caller's name after the call: it still borrows `c`
mutably, so a launch writing `c` before the op runs is E0499, as the runtime's `BorrowError` says."""

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
    vecadd.launch(prep, stream, a, b, c)  # expect: E0499
    pending.sync_on(stream)


if __name__ == "__main__":
    main()
