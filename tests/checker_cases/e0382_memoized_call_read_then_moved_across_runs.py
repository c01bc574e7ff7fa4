"""A method reads the buffer a memoised helper keeps for its arguments (a SIMT launch's input), then calls the
helper again with the same arguments and moves what it gives into a tile launch.  The key names an attribute
(`self.kind`), so the checker cannot tell the two calls' keys are equal within one run; across runs they are: the
next `process` call's first read gets the buffer the previous one moved, and the runtime raises there."""

import functools

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def window(x: Slice[f32], w: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * w[i])


@tile.kernel
def weigh(z: Partition[f32], frame: Tensor[f32], w: Tensor[f32]) -> None:
    z.store(tile.load_like(frame, z) * tile.load_like(w, z))


@functools.lru_cache(maxsize=4)
def taper(kind: str, n: int, stream: sk.Stream) -> sk.DeviceBuffer:
    return sk.to_device(np.hanning(n).astype(np.float32) if kind == "hann" else np.ones(n, np.float32), stream)


class Framer:
    def __init__(self, dev: sk.Device, kind: str) -> None:
        self.stream = dev.new_stream()
        self.kind = kind
        self.prep = window.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)

    def process(self, chunk: np.ndarray) -> np.ndarray:
        x = sk.to_device(chunk, self.stream)
        y = sk.zeros(N, f32, self.stream)
        window.launch(self.prep, self.stream, x, taper(self.kind, N, self.stream), y)  # expect: E0382
        z = tile.zeros((N,), f32).partition((N,))
        z, _, _ = weigh(z, y, taper(self.kind, N, self.stream)).sync_on(self.stream)
        return z.unpartition().to_numpy(self.stream)


def main() -> None:
    framer = Framer(sk.Device.cpu(), "hann")
    for start in range(0, 2 * N, N):
        print(framer.process(np.ones(N, np.float32) * start).sum())
