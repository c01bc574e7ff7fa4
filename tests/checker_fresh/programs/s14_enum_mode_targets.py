# fresh-expect: E0502 at line 38
"""An Enum with behaviour chooses the launch operands; the IN_PLACE member hands back the input as the output."""
import enum

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

    def operands(self, x, bias, scratch):
        if self is Mode.IN_PLACE:
            return x, bias, x
        return x, bias, scratch


def add_bias(mode: Mode, dev, stream, n: int):
    x = sk.to_device(np.ones(n, np.float32), stream)
    bias = sk.to_device(np.full(n, 0.5, np.float32), stream)
    scratch = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    lhs, rhs, out = mode.operands(x, bias, scratch)
    vecadd.launch(prepared, stream, lhs, rhs, out)  # BUG
    return out.to_numpy(stream)[:4]


dev = sk.Device.cpu()
print(add_bias(Mode("inplace"), dev, dev.new_stream(), 256))
