"""A `@simt.device` helper does not inherit its caller's unsafe block: unsafe is lexical (SPEC §5)."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.device
def scratch_buffer() -> simt.SharedArray[f32]:
    return simt.shared_array(f32, 128)  # expect: E0133


@simt.kernel
@simt.launch_contract(block=128)
def uses_helper(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    with simt.unsafe():
        buf = scratch_buffer()
        t = thread.thread_idx_x()
        buf[t] = src[t]
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


def main() -> None:
    print(sk, uses_helper)
