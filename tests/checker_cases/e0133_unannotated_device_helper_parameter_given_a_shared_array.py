"""A row-sum kernel allocates a shared scratch array inside its unsafe block and hands it to a `@simt.device`
helper whose parameter is annotated `Any`; the helper indexes it without an unsafe block of its own.  A device
helper does not inherit its caller's unsafe block (E0133, as the runtime's `UnsafeOperationError` and codegen's
SK005 say): a parameter some call of the module passes a shared array is one, unannotated or `Any`."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 32


@simt.device
def block_total(scratch: Any, t: int, v: f32) -> f32:
    scratch[t] = v  # expect: E0133
    thread.sync_threads()
    with simt.unsafe():
        total = scratch[0]
    return total


@simt.kernel
@simt.launch_contract(block=BLOCK)
def row_sum(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    idx = thread.index_1d()
    with simt.unsafe():
        scratch = simt.shared_array(f32, BLOCK)
        s = block_total(scratch, t, x[idx.get()])
    if (o := out.get_mut(idx)) is not None:
        o.set(s)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.ones(BLOCK, np.float32), stream)
    out = sk.zeros(BLOCK, f32, stream)
    row_sum.launch(row_sum.prepare(simt.LaunchConfig1D.for_len(BLOCK, block=BLOCK), dev), stream, x, out)
    print(out.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
