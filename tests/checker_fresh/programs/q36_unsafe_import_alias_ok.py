# fresh-expect: clean
"""Unchecked fills inside an unsafe block spelled through an import alias, in the function that launches."""
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, thread
from safekernels.simt import unsafe as reviewed_unsafe


@simt.kernel
def fill(dst: DisjointSlice[f32], value: f32) -> None:
    idx = thread.index_1d()
    if (o := dst.get_mut(idx)) is not None:
        o.set(value)


def fill_all(stream, bufs, value: float) -> None:
    with reviewed_unsafe():  # reviewed: the grid covers exactly 128 elements per buffer
        for buf in bufs:
            fill.launch_unchecked(simt.LaunchConfig1D.for_len(128, block=64), stream, buf, value)


stream = sk.Device.cpu().new_stream()
bufs = [sk.zeros(128, f32, stream) for _ in range(2)]
fill_all(stream, bufs, 2.0)
print(bufs[0].to_numpy(stream)[:4])
