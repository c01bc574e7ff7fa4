"""Clean twin of e0308_kernel_local_alias: a kernel launched through a local alias (`kernel = shift`, once or
again in each branch) with a launch prepared for that kernel, and distinct buffers for its input and output."""

from __future__ import annotations

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * alpha)


@simt.kernel
@simt.launch_contract(block=64)
def shift(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] + alpha)


def swapped(dev: sk.Device, stream: sk.Stream, x: sk.DeviceBuffer[f32], y: sk.DeviceBuffer[f32]) -> None:
    prep = shift.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    kernel = shift
    kernel.launch(prep, stream, x, y, 2.0)


def branched(dev: sk.Device, stream: sk.Stream, x: sk.DeviceBuffer[f32], y: sk.DeviceBuffer[f32], fast: bool) -> None:
    if fast:
        kernel = shift
    else:
        kernel = shift
    prep = shift.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    kernel.launch(prep, stream, x, y, 1.0)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.zeros(64, f32, stream)
    y = sk.zeros(64, f32, stream)
    swapped(dev, stream, x, y)
    branched(dev, stream, x, y, True)
