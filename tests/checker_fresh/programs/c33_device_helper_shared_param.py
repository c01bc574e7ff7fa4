# fresh-expect: clean
"""A device helper takes the shared array as a parameter and indexes it inside an unsafe block."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, SharedArray, Slice, thread


@simt.device
def stage(buf: SharedArray[f32], t: int, v: f32) -> None:
    with simt.unsafe():
        buf[t] = v


@simt.kernel
@simt.launch_contract(block=32)
def rotate(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    with simt.unsafe():
        s = simt.shared_array(f32, 32)
    t = thread.thread_idx_x()
    idx = thread.index_1d()
    i = idx.get()
    stage(s, t, src[i])
    thread.sync_threads()
    if (o := dst.get_mut(idx)) is not None:
        with simt.unsafe():
            o.set(s[(t + 1) % 32])


dev = sk.Device.cpu()
stream = dev.new_stream()
src = sk.to_device(np.arange(32, dtype=np.float32), stream)
dst = sk.zeros(32, f32, stream)
rotate.launch(rotate.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev), stream, src, dst)
assert dst.to_numpy(stream)[0] == 1.0
