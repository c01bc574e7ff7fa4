"""The clean twin of `e0502_list_grown_then_splatted`: the items appended are distinct buffers, and a splat before
the list has grown to its final length is not mapped item by item."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.to_device(np.ones(32, np.float32), stream)
    c = sk.zeros(32, f32, stream)
    args = [a, b]
    args.append(c)
    vecadd.launch(prep, stream, *args)
    more = [a]
    more.extend([a, c])
    vecadd.launch(prep, stream, *more)
    pair = (a, b)
    vecadd.launch(prep, stream, *pair, c)
    head = [a, a]
    vecadd.launch(prep, stream, *head, c)
    head.append(c)
