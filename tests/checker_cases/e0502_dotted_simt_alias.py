"""`import safekernels.simt as simt2`: a dotted import with an alias."""

import numpy as np

import safekernels as sk
import safekernels.simt as simt2
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt2.kernel
@simt2.launch_contract(block=64)
def negate(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(-src[i])


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    buf = sk.as_buffer(np.ones(n, dtype=np.float32))
    prepared = negate.prepare(simt2.LaunchConfig1D.for_len(n, block=64), dev)
    negate.launch(prepared, stream, buf, buf)  # expect: E0502
