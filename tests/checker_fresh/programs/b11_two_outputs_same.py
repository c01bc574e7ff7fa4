# fresh-expect: E0499 at line 24
"""A de-interleave kernel with two outputs, given the same buffer twice."""
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
    left = sk.zeros(half, f32, stream)
    right = left
    deinterleave.launch(deinterleave.prepare(simt.LaunchConfig1D.for_len(half, block=64), dev), stream, src, left, right)  # BUG E0499
    return left, right


dev = sk.Device.cpu()
split_signal(np.arange(128, dtype=np.float32), dev.new_stream(), dev)
