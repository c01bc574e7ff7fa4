# fresh-expect: E0502 at line 28
"""A kernel built inside a factory function, then launched in place."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


def make_offset_kernel():
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
    buf = sk.to_device(np.zeros(64, np.float32), stream)
    view = buf.view(0, 64)
    offset.launch(offset.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev), stream, buf, view)  # BUG E0502


main()
