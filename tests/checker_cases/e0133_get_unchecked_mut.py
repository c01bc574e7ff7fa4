"""`get_unchecked_mut` skips the bounds check and needs `unsafe`."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def fast_copy(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    i = thread.thread_idx_x() + thread.block_idx_x() * thread.block_dim_x()
    slot = dst.get_unchecked_mut(i)  # expect: E0133
    slot.set(src[i])


def main() -> None:
    print(sk, fast_copy)
