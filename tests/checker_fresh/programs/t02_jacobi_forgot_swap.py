# fresh-expect: E0502 at line 31
"""Jacobi smoothing with two buffers: the loop meant to swap them but only advances `cur`."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    left = src[i - 1] if i > 0 else src[i]
    right = src[i + 1] if i + 1 < n else src[i]
    if (o := dst.get_mut(idx)) is not None:
        o.set(0.25 * left + 0.5 * src[i] + 0.25 * right)


def relax(grid: np.ndarray, sweeps: int) -> np.ndarray:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cur = sk.to_device(grid, stream)
    nxt = sk.zeros(len(grid), f32, stream)
    prepared = smooth.prepare(simt.LaunchConfig1D.for_len(len(grid), block=128), dev)
    for sweep in range(sweeps):
        smooth.launch(prepared, stream, cur, nxt)
        cur = nxt  # BUG: meant `cur, nxt = nxt, cur`
        if sweep % 2 == 1:
            print("sweep", sweep, float(cur.to_numpy(stream).max()))
    return cur.to_numpy(stream)


if __name__ == "__main__":
    start = np.zeros(512, np.float32)
    start[256] = 1.0
    print(relax(start, sweeps=4)[250:262])
