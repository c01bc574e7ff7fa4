"""Element access of a shared array needs `unsafe` too, not only its creation (SPEC §5)."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def stage(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    with simt.unsafe():
        scratch = simt.shared_array(f32, 256)
    t = thread.thread_idx_x()
    idx = thread.index_1d()
    i = idx.get()
    scratch[t] = src[i]  # expect: E0133
    thread.sync_threads()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i])


def main() -> None:
    print(sk, stage)
