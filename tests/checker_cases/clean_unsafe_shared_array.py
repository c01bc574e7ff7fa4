"""Shared memory created and indexed inside `with simt.unsafe():`."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def reverse_block(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    idx = thread.index_1d()
    i = idx.get()
    with simt.unsafe():
        scratch = simt.shared_array(f32, 256)
        scratch[t] = src[i]
        thread.sync_threads()
        value = scratch[255 - t]
    if (o := dst.get_mut(idx)) is not None:
        o.set(value)


def main() -> None:
    print(sk, reverse_block)
