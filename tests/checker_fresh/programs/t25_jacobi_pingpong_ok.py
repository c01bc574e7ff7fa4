# fresh-expect: clean
"""Jacobi smoothing with a ping-pong pair held by a small class; the buffers are swapped after each sweep."""

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


class PingPong:
    def __init__(self, initial: np.ndarray, stream) -> None:
        self.front = sk.to_device(initial, stream)
        self.back = sk.zeros(initial.size, f32, stream)

    def swap(self) -> None:
        self.front, self.back = self.back, self.front


def relax(grid: np.ndarray, sweeps: int) -> np.ndarray:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    bufs = PingPong(grid, stream)
    prepared = smooth.prepare(simt.LaunchConfig1D.for_len(grid.size, block=128), dev)
    for sweep in range(sweeps):
        smooth.launch(prepared, stream, bufs.front, bufs.back)
        bufs.swap()
        if sweep % 2 == 1:
            print("sweep", sweep, float(bufs.front.to_numpy(stream).max()))
    return bufs.front.to_numpy(stream)


if __name__ == "__main__":
    start = np.zeros(512, np.float32)
    start[256] = 1.0
    print(relax(start, sweeps=4)[250:262])
