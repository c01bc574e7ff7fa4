"""The output parameter comes first, so the shared borrow is the later one (`as immutable ... as mutable`)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def scale(out: DisjointSlice[f32], src: Slice[f32], factor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (slot := out.get_mut(idx)) is not None:
        slot.set(src[i] * factor)


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    buf = sk.to_device(np.arange(n, dtype=np.float32), stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    scale.launch(prepared, stream, buf, buf, 2.0)  # expect: E0502@col=41
