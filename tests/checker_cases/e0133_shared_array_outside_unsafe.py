"""`simt.shared_array` needs `with simt.unsafe():`."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def block_sum(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    scratch = simt.shared_array(f32, 256)  # expect: E0133
    idx = thread.index_1d()
    i = idx.get()
    print(scratch, src[i], out)


def main() -> None:
    print(sk, block_sum)
