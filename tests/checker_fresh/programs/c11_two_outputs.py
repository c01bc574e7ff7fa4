# fresh-expect: clean
"""A de-interleave kernel with two distinct outputs."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def deinterleave(src: Slice[f32], evens: DisjointSlice[f32], odds: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := evens.get_mut(idx)) is not None:
        e.set(src[2 * i])


def split_signal(samples: np.ndarray, stream, dev):
    src = sk.to_device(samples, stream)
    half = len(samples) // 2
    left, right = sk.zeros(half, f32, stream), sk.zeros(half, f32, stream)
    deinterleave.launch(deinterleave.prepare(simt.LaunchConfig1D.for_len(half, block=64), dev), stream, src, left, right)
    return left, right


dev = sk.Device.cpu()
stream = dev.new_stream()
left, right = split_signal(np.arange(128, dtype=np.float32), stream, dev)
assert left.to_numpy(stream)[1] == 2.0
