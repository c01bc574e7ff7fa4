"""Method dispatch over the objects of a display: a loop takes each object from a list of constructor calls of the
module's classes, so a method called on the loop's name may run any of their classes' overrides.  Every override
of the abstract output property returns a buffer of its own, so the inherited `run` reads one buffer and writes
another on every object."""

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
    def __init__(self, prepared: Any, x: Any, bias: Any, out: Any) -> None:
        self.prepared = prepared
        self.x = x
        self.bias = bias
        self.out = out

    @property
    @abstractmethod
    def target(self) -> Any: ...

    def run(self, stream: Any) -> None:
        vecadd.launch(self.prepared, stream, self.x, self.bias, self.target)


class OutBias(BiasStage):
    @property
    def target(self) -> Any:
        return self.out


class ScratchBias(BiasStage):
    def __init__(self, prepared: Any, x: Any, bias: Any, out: Any, scratch: Any) -> None:
        super().__init__(prepared, x, bias, out)
        self.scratch = scratch

    @property
    def target(self) -> Any:
        return self.scratch


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    x = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    out = sk.zeros(64, f32, stream)
    stages = [OutBias(prepared, x, b, out), ScratchBias(prepared, x, b, out, sk.zeros(64, f32, stream))]
    for stage in stages:
        stage.run(stream)
    for each in (ScratchBias(prepared, x, b, out, sk.zeros(64, f32, stream)),):
        each.run(stream)


if __name__ == "__main__":
    main()
