"""A nested function that launches with an attribute of an object it captures, called with buffers other than
that attribute's: no aliasing launch."""

from dataclasses import dataclass
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


@dataclass
class Buffers:
    src: Any
    dst: Any


def run(dev: sk.Device, stream: sk.Stream, k: int) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    bufs = Buffers(a, c)

    def accumulate(u: Any, v: Any) -> None:
        vecadd.launch(prep, stream, u, v, bufs.dst)

    accumulate(a, a)
    accumulate(b, (a, b)[k % 2])
    print(c.to_numpy(stream)[:2])


if __name__ == "__main__":
    device = sk.Device.cpu()
    for k in (0, 1):
        run(device, device.new_stream(), k)
