"""A method rebinds one attribute to another (`self.scratch = self.total`): after the call the two are one
buffer, so a launch reading `acc.scratch` and writing `acc.total` aliases (the runtime raises `AliasingError`)."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


class Accumulator:
    def __init__(self, n: int, stream: sk.Stream) -> None:
        self.prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=32), sk.Device.default())
        self.total = sk.zeros(n, f32, stream)
        self.scratch = sk.zeros(n, f32, stream)

    def reuse(self) -> None:
        self.scratch = self.total


def main() -> None:
    stream = sk.Device.default().new_stream()
    acc = Accumulator(64, stream)
    x = sk.to_device(np.ones(64, np.float32), stream)
    acc.reuse()
    vecadd.launch(acc.prepared, stream, acc.scratch, x, acc.total)  # expect: E0502
