"""Kernel side: `get_mut(idx)` consumes the thread-index witness; a second `get_mut(idx)` reuses it."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def twice(src: Slice[f32], dst: DisjointSlice[f32], other: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        out.set(src[i])
    if (out2 := other.get_mut(idx)) is not None:  # expect: E0382
        out2.set(src[i])


def main() -> None:
    print(sk, twice)
