# fresh-expect: E0502 at line 29
"""Sum reduction in stages: each stage folds the upper half onto the lower half of the same buffer."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def fold(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    half = len(dst)
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] + src[i + half])


def reduce_sum(values: np.ndarray, dev, stream) -> float:
    n = values.size
    buf = sk.to_device(values, stream)
    width = n
    while width > 1:
        half = width // 2
        prep = fold.prepare(simt.LaunchConfig1D.for_len(half, block=128), dev)
        fold.launch(prep, stream, buf.view(0, width), buf.view(0, half))  # BUG: lower half is read and written
        width = half
    return float(buf.to_numpy(stream)[0])


if __name__ == "__main__":
    dev = sk.Device.cpu()
    data = np.arange(1024, dtype=np.float32)
    print(reduce_sum(data, dev, dev.new_stream()), data.sum())
