"""A registry class keeps the buffers it is given by keyword (`**bufs`) and looks them up by name through
`__getitem__`: each name is its own buffer, so a launch reading two of them and writing a third is fine."""

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


class Buffers:
    def __init__(self, **bufs: Any) -> None:
        self._bufs = bufs

    def __getitem__(self, name: str) -> Any:
        return self._bufs[name]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    ones = sk.to_device(np.ones(64, np.float32), stream)
    reg = Buffers(x=ones, y=sk.zeros(64, f32, stream), out=sk.zeros(64, f32, stream))
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    vecadd.launch(prepared, stream, reg["x"], reg["y"], reg["out"])
    vecadd.launch(prepared, stream, reg["x"], ones, reg["y"])
    out = reg["out"]
    vecadd.launch(prepared, stream, reg["x"], reg["y"], out)
