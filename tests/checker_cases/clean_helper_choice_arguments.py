"""A helper call whose arguments are expressions over places that can never name one buffer twice: each choice
of the input is a different buffer from each choice of the output, so the call is no aliasing launch on any
path."""

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


def step(prep: Any, stream: Any, u: Any, v: Any, w: Any) -> None:
    vecadd.launch(prep, stream, u, v, w)


def choices(dev: sk.Device, stream: sk.Stream, flag: bool, k: int) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    step(prep, stream, (a, b)[k % 2], a if flag else b, (c, d)[k % 2])
    step(prep, stream, a or b, b, c if flag else d)
    print(c.to_numpy(stream)[:2], d.to_numpy(stream)[:2])


if __name__ == "__main__":
    device = sk.Device.cpu()
    for flag in (True, False):
        for k in (0, 1):
            choices(device, device.new_stream(), flag, k)
