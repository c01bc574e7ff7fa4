"""A launch in code mypy infers to be unreachable (`pending` is typed without `None`) still runs."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, PreparedLaunch, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def drain(
    pending: sk.DeviceOp[tuple[Any, ...]],
    p: PreparedLaunch[Any],
    stream: sk.Stream,
    a: sk.DeviceBuffer[Any],
    c: sk.DeviceBuffer[Any],
) -> None:
    if pending is None:
        vecadd.launch(p, stream, c, a, c)  # expect: E0502
    else:
        pending.sync_on(stream)


def main(eager: bool = True) -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    c = sk.zeros(1000, f32, stream)
    p = vecadd.prepare(simt.LaunchConfig1D.for_len(1000, block=256), dev)
    pending = vecadd.launch_async(p, a, a, c)
    if eager:
        pending.sync_on(stream)
        drain(None, p, stream, a, c)  # type: ignore[arg-type]
    else:
        drain(pending, p, stream, a, c)
