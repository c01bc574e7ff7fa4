# fresh-expect: E0133 at line 23
"""A block reduction fills shared memory inside `with simt.unsafe():`, but the final read of the shared array
by thread 0 was written after the block ended."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def block_sum(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    with simt.unsafe():
        scratch = simt.shared_array(f32, 32)
        scratch[t] = src[thread.block_idx_x() * 32 + t]
    thread.sync_threads()
    if t == 0:
        total = f32(0.0)
        for k in range(32):
            total += scratch[k]  # BUG
        if (o := out.get_mut(thread.index_1d())) is not None:
            o.set(total)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.ones(64, np.float32), stream)
    out = sk.zeros(64, f32, stream)
    block_sum.launch(block_sum.prepare(simt.LaunchConfig1D(grid=2, block=32), dev), stream, src, out)
    print(out.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
