"""The clean twin of `e0502_match_captures_subject_items`: the captures bind distinct buffers, so no launch reads
the buffer it writes."""

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


def main(inplace: bool = True) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    plan = (a, c) if inplace else (b, c)
    match plan:
        case (src, dst):
            vecadd.launch(prepared, stream, src, b, dst)
    roles = {"inp": b, "out": c}
    match roles:
        case {"out": o, "inp": i}:
            vecadd.launch(prepared, stream, i, a, o)
    match (a, c):
        case tuple((x, y)) as pair:
            vecadd.launch(prepared, stream, x, b, y)
            print(len(pair))
