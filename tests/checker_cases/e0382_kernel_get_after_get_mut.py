"""Kernel side: `idx.get()` after `get_mut(idx)` uses a consumed witness (take `i = idx.get()` first)."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def late_index(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    if (out := dst.get_mut(idx)) is not None:
        i = idx.get()  # expect: E0382
        out.set(src[i])


def main() -> None:
    print(sk, late_index)
