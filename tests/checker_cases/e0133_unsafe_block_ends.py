"""The unsafe block covers only the statements inside it; the second `shared_array` is after it."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, thread


@simt.kernel
@simt.launch_contract(block=64)
def two_buffers(dst: DisjointSlice[f32]) -> None:
    with simt.unsafe():
        first = simt.shared_array(f32, 64)
    second = simt.shared_array(f32, 64)  # expect: E0133
    idx = thread.index_1d()
    if (o := dst.get_mut(idx)) is not None:
        o.set(f32(0.0))
    print(first, second)


def main() -> None:
    print(sk, two_buffers)
