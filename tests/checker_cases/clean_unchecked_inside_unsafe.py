"""`get_unchecked_mut` inside `unsafe`, in a kernel and in a `@simt.device` helper with its own block."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.device
def store_unchecked(dst: DisjointSlice[f32], i: int, value: f32) -> None:
    with simt.unsafe():
        dst.get_unchecked_mut(i).set(value)


@simt.kernel
@simt.launch_contract(block=256)
def copy(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    i = thread.thread_idx_x() + thread.block_idx_x() * thread.block_dim_x()
    with simt.unsafe():
        slot = dst.get_unchecked_mut(i)
        slot.set(src[i])
    store_unchecked(dst, i, src[i])


def main() -> None:
    print(sk, copy)
