"""Kernel side: a witness consumed inside a loop is gone on the next iteration."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, thread


@simt.kernel
@simt.launch_contract(block=256)
def repeat(dst: DisjointSlice[f32], rounds: int) -> None:
    idx = thread.index_1d()
    for r in range(rounds):
        if (out := dst.get_mut(idx)) is not None:  # expect: E0382
            out.set(f32(r))


def main() -> None:
    print(sk, repeat)
