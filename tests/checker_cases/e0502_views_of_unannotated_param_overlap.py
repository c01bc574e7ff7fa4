"""Views of a parameter that is not annotated: the launch makes the views device values, so the buffer they view
is one too, and their literal ranges overlap (the runtime's AliasingError)."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def copy(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


def shift(buf: Any, dev: sk.Device, stream: sk.Stream) -> None:
    lower = buf.view(0, 40)
    upper = buf.view(24, 64)
    copy.launch(copy.prepare(simt.LaunchConfig1D.for_len(40, block=32), dev), stream, lower, upper)  # expect: E0502


def shift_slices(buf: Any, dev: sk.Device, stream: sk.Stream) -> None:
    head = buf[0:40]
    rest = buf[24:64]
    copy.launch(copy.prepare(simt.LaunchConfig1D.for_len(40, block=32), dev), stream, head, rest)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    buf = sk.to_device(np.arange(64, dtype=np.float32), stream)
    shift(buf, dev, stream)
    shift_slices(buf, dev, stream)
