"""A helper handed views of one buffer that do not overlap (`c.view(0, 32)` read, `c.view(32, 64)` written),
or a view of another buffer: no aliasing launch."""

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


def disjoint_views(dev: sk.Device, stream: sk.Stream) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=64), dev)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    step(prep, stream, c.view(0, 32), b.view(0, 32), c.view(32, 64))
    step(prep, stream, b[0:32], b[32:64], c[0:32])
    print(c.to_numpy(stream)[:2])


if __name__ == "__main__":
    device = sk.Device.cpu()
    disjoint_views(device, device.new_stream())
