# fresh-expect: E0133 at line 22
"""launch_unchecked skips the contract, so it needs an unsafe block."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
def fill_like(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] + 1.0)


def quick(stream, n: int):
    src = sk.to_device(np.zeros(n, np.float32), stream)
    dst = sk.zeros(n, f32, stream)
    config = simt.LaunchConfig1D.for_len(n, block=64)
    fill_like.launch_unchecked(config, stream, src, dst)  # BUG E0133
    return dst


quick(sk.Device.cpu().new_stream(), 100)
