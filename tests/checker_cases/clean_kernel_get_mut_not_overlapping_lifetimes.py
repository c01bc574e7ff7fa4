"""Two `get_mut` results of one slice whose lifetimes do not overlap (non-lexical lifetimes)."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def two_passes(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    first = thread.index_1d()
    i = first.get()
    a = dst.get_mut(first)
    if a is not None:
        a.set(src[i])
    second = thread.index_1d()
    b = dst.get_mut(second)
    if b is not None:
        b.set(b.get() * 2.0)


def main() -> None:
    print(sk, two_passes)
