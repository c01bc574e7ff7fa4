"""Twin of e0502_views_of_unannotated_param_overlap: disjoint literal views and `split_at` halves of a parameter
that is not annotated."""

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
    lower = buf.view(0, 32)
    upper = buf.view(32, 64)
    copy.launch(copy.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev), stream, lower, upper)


def halves(buf: Any, dev: sk.Device, stream: sk.Stream) -> None:
    head, tail = buf.split_at(32)
    copy.launch(copy.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev), stream, head, tail)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    buf = sk.to_device(np.arange(64, dtype=np.float32), stream)
    shift(buf, dev, stream)
    halves(buf, dev, stream)
