# fresh-expect: E0502 at line 32
"""Iterated box blur over a scanline: each pass reads `src` and writes `dst`, then the buffers trade roles."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=128)
def box3(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        lo = i - 1 if i > 0 else i
        hi = i + 1 if i + 1 < n else i
        o.set((src[lo] + src[i] + src[hi]) / 3.0)


def blur(row: np.ndarray, passes: int, dev: sk.Device) -> np.ndarray:
    stream = dev.new_stream()
    src = sk.to_device(row.astype(np.float32), stream)
    dst = sk.zeros(row.size, f32, stream)
    prep = box3.prepare(simt.LaunchConfig1D.for_len(row.size, block=BLOCK), dev)
    for _ in range(passes):
        box3.launch(prep, stream, src, dst)
        src = dst  # meant: src, dst = dst, src
    return src.to_numpy(stream)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    scan = np.zeros(256, dtype=np.float32)
    scan[128] = 9.0
    print(blur(scan, 3, dev)[125:132])
