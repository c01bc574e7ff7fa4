"""A helper that launches with its parameters borrows, at the call, the region of a view it is handed
(`c[0:32]`, `c.view(16, 48)`), as a launch written in place does: a view that overlaps the buffer the helper writes
makes the call an aliasing launch."""

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
    vecadd.launch(prep, stream, u, v, w)  # expect: E0502


def slice_and_item(dev: sk.Device, stream: sk.Stream, k: int) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    step(prep, stream, c[0:32], b, (c, c)[k % 2])


def overlapping_views(dev: sk.Device, stream: sk.Stream) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    step(prep, stream, c.view(0, 32), b, c.view(16, 48))


if __name__ == "__main__":
    device = sk.Device.cpu()
    slice_and_item(device, device.new_stream(), 0)
