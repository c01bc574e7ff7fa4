# fresh-expect: clean
"""Clean twin of the off-by-one slices: the packed buffer is cut with `split_at`, so the two outputs of the
split kernel are disjoint halves of one allocation."""
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
    return buf.split_at(n // 2)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    src = sk.to_device(np.arange(n, dtype=np.float32), stream)
    packed = sk.zeros(n, f32, stream)
    head, tail = halves(packed, n)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(n // 2, block=64), dev)
    split2.launch(prepared, stream, src, head, tail)
    print(packed.to_numpy(stream)[126:130])


if __name__ == "__main__":
    main()
