# fresh-expect: clean
"""Sum reduction in stages: each stage reads both halves of one buffer and writes the other, then they swap."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def fold(lo: Slice[f32], hi: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(lo[i] + hi[i])


def reduce_sum(values: np.ndarray, dev, stream) -> float:
    n = values.size
    buf = sk.to_device(values, stream)
    spare = sk.zeros(n, f32, stream)
    width = n
    while width > 1:
        half = width // 2
        prep = fold.prepare(simt.LaunchConfig1D.for_len(half, block=128), dev)
        fold.launch(prep, stream, buf.view(0, half), buf.view(half, width), spare.view(0, half))
        buf, spare = spare, buf
        width = half
    return float(buf.to_numpy(stream)[0])


if __name__ == "__main__":
    dev = sk.Device.cpu()
    data = np.arange(1024, dtype=np.float32)
    print(reduce_sum(data, dev, dev.new_stream()), data.sum())
