# fresh-expect: E0499 at line 35
"""A buffer is cut into a head and a tail with slices for the two outputs of a split kernel; the head's stop
index is off by one and overlaps the tail by one element."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (a := lo.get_mut(thread.index_1d())) is not None:
        a.set(src[i] * 0.5)
    if (b := hi.get_mut(thread.index_1d())) is not None:
        b.set(src[i] * 2.0)


def halves(buf: sk.DeviceBuffer, n: int) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    mid = n // 2
    return buf[: mid + 1], buf[mid:]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    src = sk.to_device(np.arange(n, dtype=np.float32), stream)
    packed = sk.zeros(n, f32, stream)
    head, tail = halves(packed, n)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(n // 2, block=64), dev)
    split2.launch(prepared, stream, src, head, tail)  # BUG
    print(packed.to_numpy(stream)[126:130])


if __name__ == "__main__":
    main()
