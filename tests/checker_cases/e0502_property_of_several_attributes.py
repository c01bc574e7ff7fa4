"""A property that only tests and returns (`@property`, `@functools.cached_property`) may be any attribute of its
receiver one of its returns gives (also through `a if c else b`), or a new value: a `@cached_property` workspace
returning `self.out` on one branch may be the output itself, so a launch reading it and writing `self.out` is
E0502 inside the method; so is a property returning `self._scratch if ... else self.act` read from an object of
the class and launched with `act`."""

from functools import cached_property
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


class Layer:
    def __init__(self, n: int, stream: Any, reuse_output: bool) -> None:
        self.n = n
        self.stream = stream
        self.reuse_output = reuse_output
        self.bias = sk.to_device(np.full(n, 0.25, np.float32), stream)
        self.out = sk.zeros(n, f32, stream)

    @cached_property
    def workspace(self) -> Any:
        if self.reuse_output:
            return self.out
        return sk.zeros(self.n, f32, self.stream)

    def forward(self, prepared: Any) -> None:
        vecadd.launch(prepared, self.stream, self.workspace, self.bias, self.out)  # expect: E0502


class Act:
    def __init__(self, act: Any, scratch: Any) -> None:
        self.act = act
        self._scratch = scratch

    @property
    def output(self) -> Any:
        return self._scratch if self._scratch is not None else self.act


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    Layer(64, stream, reuse_output=True).forward(prepared)
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    layer = Act(a, None)
    out = layer.output
    vecadd.launch(prepared, stream, a, b, out)  # expect: E0502


if __name__ == "__main__":
    main()
