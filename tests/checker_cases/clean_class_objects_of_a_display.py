"""Method dispatch over the classes of a display: a loop takes each class object from a list of the module's classes
(directly, or by `zip` beside other values) and calls it, so a name bound only to that call is an object of each of
those classes, and a method called on it may run any of their overrides.  Every override of the output property
returns a buffer the stage does not read, so the inherited `run` reads one buffer and writes another."""

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


class BiasStage:
    def __init__(self, prepared: Any, x: Any, bias: Any, stream: Any) -> None:
        self.prepared = prepared
        self.x = x
        self.bias = bias
        self._out = sk.zeros(64, f32, stream)

    @property
    def target(self) -> Any:
        return self._out

    def run(self, stream: Any) -> None:
        vecadd.launch(self.prepared, stream, self.x, self.bias, self.target)


class SpareBias(BiasStage):
    def __init__(self, prepared: Any, x: Any, bias: Any, stream: Any) -> None:
        super().__init__(prepared, x, bias, stream)
        self.spare = sk.zeros(64, f32, stream)

    @property
    def target(self) -> Any:
        return self.spare


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    x = sk.to_device(np.ones(64, np.float32), stream)
    biases = [sk.to_device(np.ones(64, np.float32), stream) for _ in range(2)]
    for kind, bias in zip([BiasStage, SpareBias], biases, strict=True):
        stage = kind(prepared, x, bias, stream)
        stage.run(stream)
    kinds = (SpareBias,)
    for each in kinds:
        made = each(prepared, x, biases[0], stream)
        made.run(stream)


if __name__ == "__main__":
    main()
