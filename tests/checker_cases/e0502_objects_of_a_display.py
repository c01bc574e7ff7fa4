"""Method dispatch over the objects of a display: a loop takes each object from a list of constructor calls of the
module's classes, so a method called on the loop's name may run any of their classes' overrides.  The base class
declares its output as an abstract property; the in-place subclass returns its input from it, so the inherited
`run` reads and writes one buffer on that object (E0502 at the call, as rustc reports a conflict a call's
arguments make)."""

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class BiasStage(ABC):
    def __init__(self, prepared: Any, x: Any, bias: Any) -> None:
        self.prepared = prepared
        self.x = x
        self.bias = bias

    @property
    @abstractmethod
    def target(self) -> Any: ...

    def run(self, stream: Any) -> None:
        vecadd.launch(self.prepared, stream, self.x, self.bias, self.target)


class InPlaceBias(BiasStage):
    @property
    def target(self) -> Any:
        return self.x


class FreshBias(BiasStage):
    def __init__(self, prepared: Any, x: Any, bias: Any, out: Any) -> None:
        super().__init__(prepared, x, bias)
        self.out = out

    @property
    def target(self) -> Any:
        return self.out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    x = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    stages = [FreshBias(prepared, x, b, sk.zeros(64, f32, stream)), InPlaceBias(prepared, x, b)]
    for stage in stages:
        stage.run(stream)  # expect: E0502
    for each in (InPlaceBias(prepared, x, b),):
        each.run(stream)  # expect: E0502


if __name__ == "__main__":
    main()
