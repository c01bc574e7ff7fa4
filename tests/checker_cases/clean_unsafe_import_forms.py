"""`unsafe` under import aliases: `from safekernels.simt import unsafe` and `import safekernels.simt as s2`."""

import safekernels as sk
import safekernels.simt as s2
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, thread, unsafe


@simt.kernel
@simt.launch_contract(block=64)
def scratch_twice(dst: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    with unsafe():
        first = simt.shared_array(f32, 64)
        first[t] = f32(1.0)
    with s2.unsafe():
        second = s2.shared_array(f32, 64)
        second[t] = f32(2.0)
        total = first[t] + second[t]
    idx = thread.index_1d()
    if (o := dst.get_mut(idx)) is not None:
        o.set(total)


def main() -> None:
    print(sk, scratch_twice)
