"""An attribute holding a callable object (`self.mlp_residual = Residual(...)`) called like a method
(`self.mlp_residual(x, y, out)`) runs its class's `__call__`: handed one buffer as input and output, the call is an
aliasing launch."""

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


class Residual:
    def __init__(self, prep: Any, stream: Any) -> None:
        self.prep = prep
        self.stream = stream

    def __call__(self, branch: Any, skip: Any, out: Any) -> None:
        vecadd.launch(self.prep, self.stream, branch, skip, out)  # expect: E0502


class Block:
    def __init__(self, prep: Any, stream: Any) -> None:
        self.attn_residual = Residual(prep, stream)
        self.mlp_residual = Residual(prep, stream)
        self.scratch = sk.zeros(64, f32, stream)

    def forward(self, hidden: Any, attn_out: Any, mlp_out: Any) -> Any:
        self.attn_residual(attn_out, hidden, self.scratch)
        self.mlp_residual(mlp_out, self.scratch, self.scratch)
        return self.scratch


if __name__ == "__main__":
    device = sk.Device.cpu()
    s = device.new_stream()
    block = Block(vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), device), s)
    ones = sk.to_device(np.ones(64, np.float32), s)
    block.forward(ones, sk.to_device(np.ones(64, np.float32), s), sk.to_device(np.ones(64, np.float32), s))
