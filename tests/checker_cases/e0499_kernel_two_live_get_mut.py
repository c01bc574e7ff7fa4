"""Kernel side: two `get_mut` results of one slice that are live at the same time."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def fill_pair(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    first = thread.index_1d()
    second = thread.index_1d()
    i = first.get()
    a = dst.get_mut(first)
    b = dst.get_mut(second)  # expect: E0499
    if a is not None and b is not None:
        a.set(src[i])
        b.set(src[i])


def main() -> None:
    print(sk, fill_pair)
