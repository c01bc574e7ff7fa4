"""A 2-D kernel: `index_2d` is Optional, the index is read before `get_mut` consumes the witness."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(domain=2, block=(16, 16))
def transpose_add(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32], width: int) -> None:
    idx = thread.index_2d(width)
    if idx is None:
        return
    k = idx.get()
    if (slot := out.get_mut(idx)) is not None:
        slot.set(a[k] + b[k])


def main() -> None:
    print(sk, transpose_add)
