"""A kernel built by a factory function (`offset = make_offset_kernel()`, the factory returning a kernel defined
in its body) is that kernel at its call site: launching it with a buffer and a view of that buffer aliases."""

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
    view = buf.view(0, 64)
    prep = offset.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    offset.launch(prep, stream, buf, view)  # expect: E0502
