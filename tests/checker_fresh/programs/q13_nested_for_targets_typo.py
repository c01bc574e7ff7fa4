# fresh-expect: E0502 at line 28
"""A three-stage smoothing schedule as (src, dst) pairs unpacked in the for target; the last pair repeats a buffer."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        o.set((src[i] + src[(i + 1) % n]) * 0.5)


dev = sk.Device.cpu()
stream = dev.new_stream()
a = sk.to_device(np.arange(128, dtype=np.float32), stream)
b = sk.zeros(128, f32, stream)
c = sk.zeros(128, f32, stream)
prepared = smooth.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
schedule = [(a, b), (b, c), (c, c)]
for step, (src, dst) in enumerate(schedule):
    smooth.launch(prepared, stream, src, dst)  # BUG
    print("step", step, dst.to_numpy(stream)[:2])
