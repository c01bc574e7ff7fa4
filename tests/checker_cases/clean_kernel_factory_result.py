"""The clean twin of `e0502_kernel_factory_result`: the factory's kernel launched with two distinct buffers, and a
name rebound to something else than the factory's result is not taken for the kernel."""

from typing import Any

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


def make_offset_kernel() -> Any:
    @simt.kernel
    @simt.launch_contract(block=32)
    def offset(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
        idx = thread.index_1d()
        i = idx.get()
        if (o := dst.get_mut(idx)) is not None:
            o.set(src[i] + 10.0)

    return offset


def main() -> None:
    offset = make_offset_kernel()
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    buf = sk.zeros(64, f32, stream)
    out = sk.zeros(64, f32, stream)
    prep = offset.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    offset.launch(prep, stream, buf, out)
    offset.launch(prep, stream, out.view(0, 32), buf.view(0, 32))
