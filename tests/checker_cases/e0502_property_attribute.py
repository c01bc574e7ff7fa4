"""A read-only `@property` that returns one of its object's attributes is that attribute: `model.result` is the
buffer `model.out`, on the object's name or on `self` in another method, so a launch that reads it and writes
`out` reads what it writes (an aliasing launch, refused at run time)."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class Model:
    def __init__(self, stream: sk.Stream) -> None:
        self.weights = sk.to_device(np.ones(32, np.float32), stream)
        self.out = sk.zeros(32, f32, stream)

    @property
    def result(self) -> Any:
        """The output buffer."""
        return self.out

    def refine(self, prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
        vecadd.launch(prep, stream, self.result, self.weights, self.out)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    model = Model(stream)
    vecadd.launch(prep, stream, model.weights, model.result, model.out)  # expect: E0502
    model.refine(prep, stream)
