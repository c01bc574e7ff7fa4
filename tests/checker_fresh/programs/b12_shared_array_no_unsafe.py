# fresh-expect: E0133 at line 13
"""A block-reverse kernel that forgot the unsafe block around its shared array."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def reverse_block(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    tile_buf = simt.shared_array(f32, 32)  # BUG E0133
    t = thread.thread_idx_x()
    idx = thread.index_1d()
    i = idx.get()
    with simt.unsafe():
        tile_buf[t] = src[i]
    thread.sync_threads()
    if (o := dst.get_mut(idx)) is not None:
        with simt.unsafe():
            o.set(tile_buf[31 - t])


dev = sk.Device.cpu()
stream = dev.new_stream()
src = sk.to_device(np.arange(64, dtype=np.float32), stream)
dst = sk.zeros(64, f32, stream)
reverse_block.launch(reverse_block.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev), stream, src, dst)
