"""A method of the module's class whose every `return` is a tuple display hands back the caller's own values:
its parameters are the call's arguments and an attribute of its receiver is the caller's attribute of the object.
An `enum.Enum` member's method returning `x, bias, x` on one path makes the unpacked output the input (E0502 at
the launch); so does a method returning `self.src, self.src`, and an override returning twice the item its
`super()` call gave (`src, _ = super().buffers()`: `self.src`), called on an object of the subclass (E0502 at the
call, as the inherited `run` launches with it)."""

import enum
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


class Mode(enum.Enum):
    OUT_OF_PLACE = "oop"
    IN_PLACE = "inplace"

    def operands(self, x: Any, bias: Any, scratch: Any) -> Any:
        if self is Mode.IN_PLACE:
            return x, bias, x
        return x, bias, scratch


class Pair:
    def __init__(self, src: Any, bias: Any) -> None:
        self.src = src
        self.bias = bias

    def buffers(self) -> Any:
        return self.src, self.bias, self.src


class Stage:
    def __init__(self, src: Any, bias: Any, dst: Any) -> None:
        self.src = src
        self.bias = bias
        self.dst = dst

    def buffers(self) -> Any:
        return self.src, self.dst

    def run(self, prepared: Any, stream: Any) -> None:
        src, dst = self.buffers()
        vecadd.launch(prepared, stream, src, self.bias, dst)


class InPlaceStage(Stage):
    def buffers(self) -> Any:
        src, _ = super().buffers()
        return src, src


def add_bias(mode: Mode, prepared: Any, stream: Any, x: Any, bias: Any, scratch: Any) -> None:
    lhs, rhs, out = mode.operands(x, bias, scratch)
    vecadd.launch(prepared, stream, lhs, rhs, out)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    x = sk.to_device(np.ones(64, np.float32), stream)
    bias = sk.to_device(np.ones(64, np.float32), stream)
    add_bias(Mode("inplace"), prepared, stream, x, bias, sk.zeros(64, f32, stream))
    pair = Pair(x, bias)
    src, b, dst = pair.buffers()
    vecadd.launch(prepared, stream, src, b, dst)  # expect: E0502

    stage = InPlaceStage(x, bias, sk.zeros(64, f32, stream))
    stage.run(prepared, stream)  # expect: E0502


if __name__ == "__main__":
    main()
