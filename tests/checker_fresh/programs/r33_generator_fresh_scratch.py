# fresh-expect: clean
"""Clean twin of the cycling pool: a generator allocates a fresh scratch buffer on every `next`, so the two
outputs of the split come from different allocations."""
from collections.abc import Iterator

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


def scratch(n: int, stream) -> Iterator[sk.DeviceBuffer]:
    while True:
        yield sk.zeros(n, f32, stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 128
    src = sk.to_device(np.arange(n, dtype=np.float32), stream)
    fresh = scratch(n, stream)
    lo, hi = next(fresh), next(fresh)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    split2.launch(prepared, stream, src, lo, hi)
    print(lo.to_numpy(stream)[:2], hi.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
